import { makeStyles, mergeClasses, shorthands, tokens } from '@fluentui/react-components';
import { CheckmarkCircle20Filled, ErrorCircle20Filled } from '@fluentui/react-icons';

const useStyles = makeStyles({
  banner: {
    display: 'flex',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalS,
    paddingBlock: tokens.spacingVerticalS,
    paddingInline: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    ...shorthands.borderWidth('1px'),
    ...shorthands.borderStyle('solid'),
  },
  error: {
    backgroundColor: tokens.colorPaletteRedBackground1,
    ...shorthands.borderColor(tokens.colorPaletteRedBorder1),
    color: tokens.colorNeutralForeground1,
  },
  success: {
    backgroundColor: tokens.colorPaletteGreenBackground1,
    ...shorthands.borderColor(tokens.colorPaletteGreenBorder1),
    color: tokens.colorNeutralForeground1,
  },
  errorIcon: { color: tokens.colorPaletteRedForeground1, flexShrink: 0 },
  successIcon: { color: tokens.colorPaletteGreenForeground1, flexShrink: 0 },
});

/**
 * A failed load or save, in a banner a screen reader announces. Deliberately light (not Fluent's MessageBar):
 * it is on the account page's first load, which has a JavaScript budget.
 */
export function ErrorBanner({ message }: { message: string }) {
  const styles = useStyles();
  return (
    <div role="alert" className={mergeClasses(styles.banner, styles.error)}>
      <ErrorCircle20Filled className={styles.errorIcon} aria-hidden />
      <span>{message}</span>
    </div>
  );
}

/** A completed action, announced politely. */
export function SuccessBanner({ message }: { message: string }) {
  const styles = useStyles();
  return (
    <div role="status" className={mergeClasses(styles.banner, styles.success)}>
      <CheckmarkCircle20Filled className={styles.successIcon} aria-hidden />
      <span>{message}</span>
    </div>
  );
}
