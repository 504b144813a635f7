import { makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';

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
  error: { color: tokens.colorPaletteRedForeground1 },
});

/** A centred state of the app: a spinner with its label, optionally an error above it. */
export function StatusScreen({ label, error, spinner = true }: { label: string; error?: string; spinner?: boolean }) {
  const styles = useStyles();
  return (
    <main className={styles.screen}>
      {error ? (
        <Text role="alert" className={styles.error} weight="semibold">
          {error}
        </Text>
      ) : null}
      {spinner ? <Spinner label={label} labelPosition="below" /> : <Text>{label}</Text>}
    </main>
  );
}
