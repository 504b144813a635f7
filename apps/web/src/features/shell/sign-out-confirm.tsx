import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { paths } from '../../config/paths.js';
import { markSignOutIntent } from '../../lib/sign-out-intent.js';
import { clearTokenEntries } from '../auth/index.js';
import { SHELL_MESSAGES } from './messages.js';

/** "Sign Out" confirmation: confirming removes the stored access tokens and starts the logout screen. */
export function SignOutDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  return (
    <ConfirmDialog
      open={open}
      title={SHELL_MESSAGES.signOut}
      message={SHELL_MESSAGES.signOutQuestion}
      cancelLabel={SHELL_MESSAGES.cancel}
      confirmLabel={SHELL_MESSAGES.signOut}
      onCancel={() => onOpenChange(false)}
      onConfirm={() => {
        clearTokenEntries();
        onOpenChange(false);
        markSignOutIntent();
        navigate(paths.logoutFromApp);
      }}
    />
  );
}
