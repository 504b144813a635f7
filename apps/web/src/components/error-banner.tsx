import { makeStyles, mergeClasses, shorthands, tokens } from '@fluentui/react-components';
import { CheckmarkCircle20Filled, ErrorCircle20Filled } from '@fluentui/react-icons';
import { ApiError } from '../lib/api-client.js';
import { REFERENCE } from './messages.js';

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
  reference: { marginInlineStart: 'auto', color: tokens.colorNeutralForeground3, whiteSpace: 'nowrap' },
});

/** A banner a screen reader announces; errors interrupt (alert), successes wait their turn (status). */
function Banner({
  message,
  kind,
  reference,
}: {
  message: string;
  kind: 'error' | 'success';
  reference?: string | null;
}) {
  const styles = useStyles();
  const Icon = kind === 'error' ? ErrorCircle20Filled : CheckmarkCircle20Filled;
  return (
    <div role={kind === 'error' ? 'alert' : 'status'} className={mergeClasses(styles.banner, styles[kind])}>
      <Icon className={kind === 'error' ? styles.errorIcon : styles.successIcon} aria-hidden />
      <span>{message}</span>
      {reference ? <small className={styles.reference}>{`${REFERENCE} ${reference}`}</small> : null}
    </div>
  );
}

/**
 * A failed load or save. Deliberately light (not Fluent's MessageBar): it is on the account page's first load,
 * which has a JavaScript budget.
 */
export const ErrorBanner = ({ message, error }: { message: string; error?: unknown }) => (
  <Banner message={message} kind="error" reference={error instanceof ApiError ? error.requestId : null} />
);

/** A completed action. */
export const SuccessBanner = ({ message }: { message: string }) => <Banner message={message} kind="success" />;
