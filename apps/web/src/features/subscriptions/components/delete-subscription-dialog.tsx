import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';
import { SUBSCRIPTIONS as T } from '../messages.js';

/** "Delete subscription?": Cancel keeps it, Delete cancels it on the server. */
export function DeleteSubscriptionDialog({
  open,
  busy,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} modalType="alert" onOpenChange={(_, data) => (data.open || busy ? undefined : onCancel())}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{T.deleteTitle}</DialogTitle>
          <DialogContent>{T.deleteBody}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" disabled={busy} onClick={onCancel}>
              {T.cancel}
            </Button>
            <Button appearance="primary" disabled={busy} onClick={onConfirm}>
              {T.delete}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
