import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';
import { SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { errorText } from '../../../lib/error-text.js';
import { useRegenerateRecoveryCodes } from '../api/factors.js';
import { RecoveryCodesBody } from './recovery-codes-dialog.js';

/**
 * Asks before making new recovery codes, then shows them in the same dialog: no second modal opens while the
 * question's is closing (a closing modal hides the new one from assistive technology).
 */
export function RegenerateCodesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const regenerate = useRegenerateRecoveryCodes();
  const [issued, setIssued] = useState<string[] | null>(null);
  return (
    <Dialog
      open={open}
      modalType="alert"
      onOpenChange={(_, data) => (data.open || issued || regenerate.isPending ? undefined : onClose())}
    >
      <DialogSurface>
        {issued ? (
          <RecoveryCodesBody codes={issued} onDone={onClose} />
        ) : (
          <DialogBody>
            <DialogTitle>{T.regenerateTitle}</DialogTitle>
            <DialogContent>
              <p>{T.regenerateBody}</p>
              {regenerate.isError ? (
                <ErrorBanner message={errorText(regenerate.error, T.regenerateFailed)} error={regenerate.error} />
              ) : null}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" disabled={regenerate.isPending} onClick={onClose}>
                {T.cancel}
              </Button>
              <Button
                appearance="primary"
                disabled={regenerate.isPending}
                onClick={() =>
                  regenerate.mutate(undefined, {
                    onSuccess: (answer) => (answer?.recoveryCodes.length ? setIssued(answer.recoveryCodes) : onClose()),
                  })
                }
              >
                {T.regenerate}
              </Button>
            </DialogActions>
          </DialogBody>
        )}
      </DialogSurface>
    </Dialog>
  );
}
