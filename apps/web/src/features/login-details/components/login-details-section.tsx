import { Button, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { EditRegular } from '@fluentui/react-icons';
import { passwordProblemText } from '@ums/contracts/password-policy';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAuth } from 'react-oidc-context';
import { ErrorBanner, SuccessBanner } from '../../../components/error-banner.js';
import { useSectionStyles } from '../../../components/section-styles.js';
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
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
});

const EMPTY = { current: '', next: '', confirm: '' };

export function LoginDetailsSection() {
  const rows = useSectionStyles();
  const styles = useStyles();
  const auth = useAuth();
  const email = typeof auth.user?.profile.email === 'string' ? auth.user.profile.email : '';
  const change = useChangePassword();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const editButton = useRef<HTMLButtonElement>(null);

  useEffect(() => () => clearTimeout(timer.current), []);

  const resetAll = () => {
    clearTimeout(timer.current);
    setFields(EMPTY);
    setError(null);
    setChanged(false);
    change.reset();
    setOpen(false);
    editButton.current?.focus();
  };

  const busy = change.isPending;
  const filled = Boolean(fields.current && fields.next && fields.confirm);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!filled || busy) return;
    const problems = passwordProblemText(fields.next);
    if (problems) return setError(problems);
    if (fields.next !== fields.confirm) return setError(T.mismatch);
    setError(null);
    change.mutate(
      { previousPassword: fields.current, proposedPassword: fields.next },
      {
        onSuccess: () => {
          setChanged(true);
          timer.current = setTimeout(resetAll, PASSWORD_SUCCESS_MS);
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
    <div className={rows.card}>
      <dl className={rows.list}>
        <div className={rows.row}>
          <dt className={rows.label}>{T.email}</dt>
          <dd className={rows.value}>{email}</dd>
        </div>
        <div className={rows.row}>
          <dt className={rows.label}>{T.password}</dt>
          <dd className={rows.value}>
            <span>
              <span aria-hidden>{T.maskedPassword}</span>
              <span className="visually-hidden">{T.hiddenPassword}</span>
            </span>
            <Button
              ref={editButton}
              appearance="subtle"
              icon={<EditRegular />}
              aria-label={T.editPassword}
              aria-expanded={open}
              onClick={() => (open ? resetAll() : setOpen(true))}
            />
          </dd>
        </div>
      </dl>
      {open ? (
        <form className={styles.form} onSubmit={submit} noValidate aria-label={T.editPassword}>
          {input('current', T.currentPassword, 'current-password')}
          {input('next', T.newPassword, 'new-password', T.helper)}
          <PasswordChecklist password={fields.next} />
          {input('confirm', T.confirmPassword, 'new-password')}
          {error ? <ErrorBanner message={error} /> : null}
          {changed ? <SuccessBanner message={T.changed} /> : null}
          <div className={styles.actions}>
            <Button appearance="primary" type="submit" disabled={!filled || busy || changed}>
              {busy ? T.changing : T.reset}
            </Button>
            <Button appearance="secondary" onClick={resetAll}>
              {T.cancel}
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
