import { makeStyles, tokens } from '@fluentui/react-components';
import { HOLDS_FIRST_PAINT } from '../lib/first-paint.js';
import { ErrorBanner } from './error-banner.js';
import { Spinner } from './spinner.js';

const useStyles = makeStyles({
  screen: {
    minHeight: '60vh',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalXL,
    textAlign: 'center',
  },
});

/**
 * A centred state of the app: a spinner with its label, optionally an error (the app's one error banner) above it.
 * `holdsFirstPaint`: a passing loading state that the page's static first paint may keep covering (lib/first-paint.ts).
 */
export function StatusScreen({
  label,
  error,
  spinner = true,
  holdsFirstPaint = false,
}: {
  label: string;
  error?: string;
  spinner?: boolean;
  holdsFirstPaint?: boolean;
}) {
  const styles = useStyles();
  return (
    <main className={styles.screen} {...(holdsFirstPaint ? { [HOLDS_FIRST_PAINT]: '' } : {})}>
      {error ? <ErrorBanner message={error} /> : null}
      {spinner ? <Spinner label={label} labelPosition="below" /> : <span>{label}</span>}
    </main>
  );
}
