import { makeStyles, tokens } from '@fluentui/react-components';
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

/** A centred state of the app: a spinner with its label, optionally an error (the app's one error banner) above it. */
export function StatusScreen({ label, error, spinner = true }: { label: string; error?: string; spinner?: boolean }) {
  const styles = useStyles();
  return (
    <main className={styles.screen}>
      {error ? <ErrorBanner message={error} /> : null}
      {spinner ? <Spinner label={label} labelPosition="below" /> : <span>{label}</span>}
    </main>
  );
}
