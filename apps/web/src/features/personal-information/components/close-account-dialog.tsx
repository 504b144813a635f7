import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
} from '@fluentui/react-components';
import type { AccountDeletion } from '@ums/contracts';
import { ACCOUNT_DELETION_TEXTS as D } from '@ums/contracts/self-service/account-deletion';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.js';
import { markSignOutIntent } from '../../../lib/sign-out-intent.js';
import { firstOf } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';
import { errorText } from '../../../lib/error-text.js';

/**
 * "Close my account": the member confirms with their current password; the server schedules the deletion and ends
 * every session, so the app signs out (this tab's tokens no longer work anyway).
 */
export function CloseAccountDialog({
  graceDays,
  open,
  onClose,
}: {
  graceDays: number;
  open: boolean;
  onClose: () => void;
}) {
  const api = useApi();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const close = useMutation({
    mutationFn: async (current: string) =>
      firstOf<AccountDeletion>(await (await api()).post('/me/deletion', { password: current })),
    onSuccess: () => {
      markSignOutIntent();
      void navigate(paths.logoutFromApp, { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password) close.mutate(password);
  };
  const problem = close.isError ? errorText(close.error, D.wrongPassword) : undefined;

  return (
    <Dialog
      open={open}
      onOpenChange={(_event, data) => {
        if (!data.open && !close.isPending) {
          setPassword('');
          close.reset();
          onClose();
        }
      }}
    >
      <DialogSurface aria-describedby="close-account-explain">
        <form onSubmit={submit}>
          <DialogBody>
            <DialogTitle>{D.title}</DialogTitle>
            <DialogContent>
              <p id="close-account-explain">{D.explain(graceDays)}</p>
              <Field
                label={D.password}
                required
                validationMessage={problem}
                validationState={problem ? 'error' : 'none'}
              >
                <Input
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(_event, data) => setPassword(data.value)}
                />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button type="button" disabled={close.isPending} onClick={onClose}>
                {D.cancel}
              </Button>
              <Button type="submit" appearance="primary" disabled={!password || close.isPending}>
                {D.confirm}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
