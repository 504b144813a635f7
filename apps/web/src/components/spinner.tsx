import { makeStyles, mergeClasses, shorthands, tokens } from '@fluentui/react-components';
import { useId } from 'react';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingHorizontalS,
    color: tokens.colorNeutralForeground1,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
  },
  below: { flexDirection: 'column' },
  ring: {
    boxSizing: 'border-box',
    width: '32px',
    height: '32px',
    flexShrink: 0,
    borderRadius: '50%',
    ...shorthands.borderWidth('3px'),
    ...shorthands.borderStyle('solid'),
    ...shorthands.borderColor(tokens.colorBrandStroke2),
    borderTopColor: tokens.colorBrandStroke1,
    animationName: { from: { transform: 'rotate(0deg)' }, to: { transform: 'rotate(360deg)' } },
    animationDuration: '1s',
    animationIterationCount: 'infinite',
    animationTimingFunction: 'linear',
    '@media (prefers-reduced-motion: reduce)': { animationDuration: '3s' },
  },
  tiny: { width: '20px', height: '20px', ...shorthands.borderWidth('2px') },
});

interface SpinnerProps {
  label?: string;
  size?: 'tiny' | 'medium';
  labelPosition?: 'after' | 'below';
  className?: string;
}

/**
 * A busy indicator with its label, as Fluent's Spinner shows it (a progressbar named by the label), drawn by one
 * CSS animation: the loading states are on every first paint, so they carry no animation code.
 */
export function Spinner({ label, size = 'medium', labelPosition = 'after', className }: SpinnerProps) {
  const styles = useStyles();
  const labelId = useId();
  return (
    <div
      role="progressbar"
      aria-labelledby={label ? labelId : undefined}
      className={mergeClasses(styles.root, labelPosition === 'below' && styles.below, className)}
    >
      <span className={mergeClasses(styles.ring, size === 'tiny' && styles.tiny)} aria-hidden />
      {label ? <span id={labelId}>{label}</span> : null}
    </div>
  );
}
