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
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { EMAIL_CHANGE_TEXTS as T, EMAIL_MAX_LENGTH, EMAIL_SHAPE } from '@ums/contracts/self-service/email-change';
import { useId, useState, type FormEvent } from 'react';
import { ConfirmationCodeField } from '../../../components/confirmation-code-field.js';
import { ErrorBanner } from '../../../components/error-banner.js';
import { formFailure } from '../../../lib/field-errors.js';
import { useHasSecondFactor } from '../../../lib/security-factors.js';
import { useRequestEmailChange } from '../api/email-change.js';
import { LOGIN_DETAILS } from '../messages.js';

const useStyles = makeStyles({
  content: { display: 'grid', gap: tokens.spacingVerticalM },
  intro: { margin: 0 },
});

type EmailChangeField = 'newEmail' | 'password' | 'code';
/** The API's names for the dialog's fields (the same). */
const EMAIL_CHANGE_FIELDS: Readonly<Record<string, EmailChangeField>> = {
  newEmail: 'newEmail',
  password: 'password',
  code: 'code',
};

/** The browser's cheap check of the new address, in the words the API would answer: null when it may be sent. */
export function newEmailProblem(newEmail: string): string | null {
  if (newEmail.length > EMAIL_MAX_LENGTH) return T.tooLong;
  return EMAIL_SHAPE.test(newEmail) ? null : T.badAddress;
}

/**
 * "Change email": the new address and the current password (and an account with a second factor its code). The
 * server mails a link to the new address; the dialog closes and the row shows the change waiting for it.
 */
export function EmailChangeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const request = useRequestEmailChange();
  const introId = useId();
  // Not dismissed while the request is on its way: its answer decides what the row shows.
  const close = () => {
    if (request.isPending) return;
    request.reset();
    onClose();
  };
  return (
    <Dialog open={open} onOpenChange={(_, data) => (data.open ? undefined : close())}>
      <DialogSurface aria-describedby={introId}>
        {/* The surface's content mounts on each opening, so every opening starts empty. */}
        <EmailChangeForm request={request} introId={introId} onCancel={close} onSent={onClose} />
      </DialogSurface>
    </Dialog>
  );
}

function EmailChangeForm({
  request,
  introId,
  onCancel,
  onSent,
}: {
  request: ReturnType<typeof useRequestEmailChange>;
  introId: string;
  onCancel: () => void;
  onSent: () => void;
}) {
  const styles = useStyles();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const withCode = useHasSecondFactor();
  const [code, setCode] = useState('');
  /** The browser's word on the new address, under its field. */
  const [addressProblem, setAddressProblem] = useState<string | null>(null);
  const busy = request.isPending;
  const ready = Boolean(newEmail.trim() && password && (!withCode || code.trim()));

  // The server's refusals of a field go under it; anything else (too many requests, a fault) to the banner.
  const failure = request.isError ? formFailure(request.error, EMAIL_CHANGE_FIELDS, '') : null;
  const placed = failure ? Object.keys(failure.fields).length > 0 : false;
  const banner = failure ? failure.banner || (placed ? null : LOGIN_DETAILS.emailChangeFailed) : null;
  const problem = (field: EmailChangeField) => (field === 'newEmail' ? addressProblem : null) ?? failure?.fields[field];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || busy) return;
    const address = newEmail.trim();
    const found = newEmailProblem(address);
    setAddressProblem(found);
    if (found) return request.reset();
    request.mutate(
      { newEmail: address, password, ...(withCode ? { code: code.trim() } : {}) },
      {
        onSuccess: () => {
          request.reset();
          onSent();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogBody>
        <DialogTitle>{T.title}</DialogTitle>
        <DialogContent className={styles.content}>
          <p id={introId} className={styles.intro}>
            {T.intro}
          </p>
          <Field label={T.newEmail} required validationMessage={problem('newEmail')}>
            <Input type="email" autoComplete="email" value={newEmail} onChange={(_, data) => setNewEmail(data.value)} />
          </Field>
          <Field label={T.password} required validationMessage={problem('password')}>
            <Input
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(_, data) => setPassword(data.value)}
            />
          </Field>
          {withCode ? (
            <ConfirmationCodeField value={code} onChange={setCode} validationMessage={problem('code')} />
          ) : null}
          {banner ? <ErrorBanner message={banner} error={request.error} /> : null}
        </DialogContent>
        <DialogActions>
          <Button appearance="secondary" disabled={busy} onClick={onCancel}>
            {T.cancel}
          </Button>
          {/* Focusable while sending, so the focus stays on it rather than falling out of the dialog. */}
          <Button appearance="primary" type="submit" disabled={!ready} disabledFocusable={busy}>
            {busy ? T.sending : T.send}
          </Button>
        </DialogActions>
      </DialogBody>
    </form>
  );
}
