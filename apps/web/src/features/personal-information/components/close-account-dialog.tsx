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
import { ACCOUNT_DELETION_TEXTS as D } from '@ums/contracts/self-service/account-deletion';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.js';
import { markSignOutIntent } from '../../../lib/sign-out-intent.js';
import { formFailure } from '../../../lib/field-errors.js';
import { useHasSecondFactor } from '../../../lib/security-factors.js';
import { ConfirmationCodeField } from '../../../components/confirmation-code-field.js';
import { useCloseAccount } from '../api/close-account.js';

/** The API's names for the dialog's fields (the same). */
const CONFIRMATION_FIELDS: Readonly<Record<string, 'password' | 'code'>> = { password: 'password', code: 'code' };

/**
 * "Close my account": the member confirms with their current password (and an account with a second factor with its
 * code); the server schedules the deletion and ends every session, so the app signs out (this tab's tokens no longer
 * work anyway).
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
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const withCode = useHasSecondFactor();
  const [code, setCode] = useState('');
  const ready = Boolean(password && (!withCode || code.trim()));
  const close = useCloseAccount(() => {
    markSignOutIntent();
    void navigate(paths.logoutFromApp, { replace: true });
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) close.mutate({ password, ...(withCode ? { code: code.trim() } : {}) });
  };
  // A refusal without field errors is the password's (the server's word, or that it was wrong).
  const failure = close.isError ? formFailure(close.error, CONFIRMATION_FIELDS, D.wrongPassword) : null;
  const problem = failure ? (failure.fields.password ?? (failure.fields.code ? undefined : failure.banner)) : undefined;

  return (
    <Dialog
      open={open}
      onOpenChange={(_event, data) => {
        if (!data.open && !close.isPending) {
          setPassword('');
          setCode('');
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
              {withCode ? (
                <ConfirmationCodeField
                  value={code}
                  onChange={setCode}
                  disabled={close.isPending}
                  validationMessage={failure?.fields.code}
                />
              ) : null}
            </DialogContent>
            <DialogActions>
              <Button type="button" disabled={close.isPending} onClick={onClose}>
                {D.cancel}
              </Button>
              <Button type="submit" appearance="primary" disabled={!ready || close.isPending}>
                {D.confirm}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
