import { Button, Field, Input, Link, makeStyles, tokens } from '@fluentui/react-components';
import { passwordProblemText } from '@ums/contracts/password-policy';
import { PASSWORD_RESET_TEXTS } from '@ums/contracts/security';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorBanner, SuccessBanner } from '../../../components/error-banner.js';
import { useClientConfig } from '../../../lib/client-config-context.js';
import { useHasSecondFactor } from '../../../lib/security-factors.js';
import { ConfirmationCodeField } from '../../../components/confirmation-code-field.js';
import { useChangePassword } from '../api/change-password.js';
import { LOGIN_DETAILS as T, PASSWORD_SUCCESS_MS, passwordChangeError } from '../messages.js';
import { PasswordChecklist } from './password-checklist.js';

const useStyles = makeStyles({
  form: {
    display: 'grid',
    gap: tokens.spacingVerticalM,
    maxWidth: '480px',
    paddingBlockStart: tokens.spacingVerticalM,
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  forgot: { marginInlineStart: 'auto' },
});

const EMPTY = { current: '', next: '', confirm: '' };

/** The password change form; fetched when the member first opens it. Closing it discards what was typed. */
export function PasswordChangeForm({ onClose }: { onClose: () => void }) {
  const styles = useStyles();
  const change = useChangePassword();
  const { forgotPasswordUrl } = useClientConfig();
  const [fields, setFields] = useState(EMPTY);
  const withCode = useHasSecondFactor();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const busy = change.isPending;
  const filled = Boolean(fields.current && fields.next && fields.confirm && (!withCode || code.trim()));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!filled || busy) return;
    const problems = passwordProblemText(fields.next);
    if (problems) return setError(problems);
    if (fields.next !== fields.confirm) return setError(T.mismatch);
    setError(null);
    change.mutate(
      { previousPassword: fields.current, proposedPassword: fields.next, ...(withCode ? { code: code.trim() } : {}) },
      {
        onSuccess: () => {
          setChanged(true);
          timer.current = setTimeout(onClose, PASSWORD_SUCCESS_MS);
        },
        onError: (failure) => setError(passwordChangeError(failure)),
      },
    );
  };

  const input = (key: keyof typeof EMPTY, label: string, autoComplete: string, hint?: string) => (
    <Field label={label} hint={hint} required>
      <Input
        type="password"
        autoComplete={autoComplete}
        value={fields[key]}
        disabled={busy || changed}
        onChange={(_, data) => setFields((current) => ({ ...current, [key]: data.value }))}
      />
    </Field>
  );

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label={T.editPassword}>
      {input('current', T.currentPassword, 'current-password')}
      {input('next', T.newPassword, 'new-password', T.helper)}
      <PasswordChecklist password={fields.next} />
      {input('confirm', T.confirmPassword, 'new-password')}
      {withCode ? <ConfirmationCodeField value={code} onChange={setCode} disabled={busy || changed} /> : null}
      {error ? <ErrorBanner message={error} /> : null}
      {changed ? <SuccessBanner message={T.changed} /> : null}
      <div className={styles.actions}>
        <Button appearance="primary" type="submit" disabled={!filled || busy || changed}>
          {busy ? T.changing : T.reset}
        </Button>
        <Button appearance="secondary" onClick={onClose}>
          {T.cancel}
        </Button>
        {forgotPasswordUrl ? (
          // A member who no longer knows the current password sets a new one through a link sent by mail.
          <Link className={styles.forgot} href={forgotPasswordUrl}>
            {PASSWORD_RESET_TEXTS.link}
          </Link>
        ) : null}
      </div>
    </form>
  );
}
