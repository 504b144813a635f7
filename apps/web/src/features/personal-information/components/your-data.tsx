import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { ACCOUNT_DELETION_TEXTS } from '@ums/contracts/self-service/account-deletion';
import { MY_DATA_TEXTS, myDataFileName } from '@ums/contracts/self-service/my-data';
import { RECEIPT_ACTIONS } from '@ums/contracts/self-service/receipts';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { useClientConfig } from '../../../lib/client-config-context.js';
import { useDownload } from '../../../lib/download.js';
import { useStepUpDraft } from '../../../lib/step-up-draft.js';
import { useLazyDialog } from '../../../lib/use-lazy-dialog.js';

const CloseAccountDialog = lazy(() =>
  import('./close-account-dialog.js').then((m) => ({ default: m.CloseAccountDialog })),
);

const useStyles = makeStyles({
  yourData: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    marginBlockStart: tokens.spacingVerticalL,
  },
  error: { flexBasis: '100%' },
});

/**
 * The export asked for before a step-up sign-in: by the member's press ('asked'), or by the page coming back from
 * the sign-in ('resumed'). Only an asked export starts again by itself: a provider that ignores `max_age` would
 * otherwise send the tab round without end.
 */
type ExportDraft = 'asked' | 'resumed';
const EXPORT_DRAFT = 'me.export';
const readExportDraft = (stored: unknown): ExportDraft | null =>
  stored === 'asked' || stored === 'resumed' ? stored : null;

/** "Download my data" and "Close my account": what the law lets a member ask of their data. */
export function YourData() {
  const styles = useStyles();
  const { deletionGraceDays } = useClientConfig();
  const files = useDownload(RECEIPT_ACTIONS.downloadFailed);
  const closing = useLazyDialog();
  // The export needs a recent sign-in: when the API asks for one, the file comes once the member is back.
  const exportDraft = useStepUpDraft(EXPORT_DRAFT, readExportDraft);
  const { download } = files;
  const exportMyData = (how: ExportDraft) => {
    exportDraft.keep(how);
    void download('export', '/me/export', myDataFileName(new Date().toISOString().slice(0, 10))).then(
      exportDraft.settle,
    );
  };
  const resumed = useRef(false);
  useEffect(() => {
    if (exportDraft.restored !== 'asked' || resumed.current) return;
    resumed.current = true;
    exportMyData('resumed');
  });
  return (
    <div className={styles.yourData}>
      <Button size="small" disabled={files.busy !== null} onClick={() => exportMyData('asked')}>
        {MY_DATA_TEXTS.action}
      </Button>
      {deletionGraceDays !== null ? (
        <Button size="small" appearance="subtle" onClick={closing.show}>
          {ACCOUNT_DELETION_TEXTS.action}
        </Button>
      ) : null}
      {files.error ? (
        <div className={styles.error}>
          <ErrorBanner message={files.error} />
        </div>
      ) : null}
      {closing.mounted && deletionGraceDays !== null ? (
        <Suspense fallback={null}>
          <CloseAccountDialog graceDays={deletionGraceDays} open={closing.open} onClose={closing.hide} />
        </Suspense>
      ) : null}
    </div>
  );
}
