import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { SUBSCRIPTIONS as T } from '../messages.js';

/** "Delete subscription?": Cancel keeps it, Delete cancels it on the server. */
export function DeleteSubscriptionDialog(props: {
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      {...props}
      title={T.deleteTitle}
      message={T.deleteBody}
      cancelLabel={T.cancel}
      confirmLabel={T.delete}
    />
  );
}
