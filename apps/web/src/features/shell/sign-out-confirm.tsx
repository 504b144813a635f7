import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.js';
import { clearTokenEntries } from '../auth/token-storage.js';
import { SHELL_MESSAGES } from './shell-constants.js';

/** "Sign Out" confirmation: confirming removes the stored access tokens and starts the logout screen. */
export function SignOutDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const confirm = () => {
    clearTokenEntries();
    onOpenChange(false);
    navigate(paths.logoutFromApp);
  };
  return (
    <Dialog open={open} onOpenChange={(_, data) => onOpenChange(data.open)} modalType="alert">
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{SHELL_MESSAGES.signOut}</DialogTitle>
          <DialogContent>{SHELL_MESSAGES.signOutQuestion}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={() => onOpenChange(false)}>
              {SHELL_MESSAGES.cancel}
            </Button>
            <Button appearance="primary" onClick={confirm}>
              {SHELL_MESSAGES.signOut}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
