import { Button, Field, Input, Link, makeStyles, tokens } from '@fluentui/react-components';
import { passwordProblemText } from '@ums/contracts/password-policy';
import { PASSWORD_RESET_TEXTS } from '@ums/contracts/security';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorBanner, SuccessBanner } from '../../../components/error-banner.js';
import { useClientConfig } from '../../../lib/client-config-context.js';
import { useHasSecondFactor } from '../../../lib/security-factors.js';
import { ConfirmationCodeField } from '../../../components/confirmation-code-field.js';
import { formFailure } from '../../../lib/field-errors.js';
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
type PasswordField = keyof typeof EMPTY | 'code';
/** The API's names for the form's fields, for putting its field errors back on them. */
const PASSWORD_FIELDS: Readonly<Record<string, PasswordField>> = {
  previousPassword: 'current',
  proposedPassword: 'next',
  code: 'code',
};

/** The password change form; fetched when the member first opens it. Closing it discards what was typed. */
export function PasswordChangeForm({ onClose }: { onClose: () => void }) {
  const styles = useStyles();
  const change = useChangePassword();
  const { forgotPasswordUrl } = useClientConfig();
  const [fields, setFields] = useState(EMPTY);
  const withCode = useHasSecondFactor();
  const [code, setCode] = useState('');
  /** The browser's checks of the new password and its confirmation, under their fields. */
  const [problems, setProblems] = useState<Partial<Record<PasswordField, string>>>({});
  const failure = change.isError
    ? { ...formFailure(change.error, PASSWORD_FIELDS, ''), banner: passwordChangeError(change.error) }
    : null;
  const problem = (field: PasswordField) => problems[field] ?? failure?.fields[field];
  const [changed, setChanged] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const busy = change.isPending;
  const filled = Boolean(fields.current && fields.next && fields.confirm && (!withCode || code.trim()));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!filled || busy) return;
    // The rules the API checks too (one rule set for both, from the contracts).
    const rules = passwordProblemText(fields.next);
    const found = rules ? { next: rules } : fields.next !== fields.confirm ? { confirm: T.mismatch } : {};
    setProblems(found);
    if (rules || found.confirm) return change.reset();
    change.mutate(
      { previousPassword: fields.current, proposedPassword: fields.next, ...(withCode ? { code: code.trim() } : {}) },
      {
        onSuccess: () => {
          setChanged(true);
          timer.current = setTimeout(onClose, PASSWORD_SUCCESS_MS);
        },
      },
    );
  };

  const input = (key: keyof typeof EMPTY, label: string, autoComplete: string, hint?: string) => (
    <Field label={label} hint={hint} required validationMessage={problem(key)}>
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
      {withCode ? (
        <ConfirmationCodeField
          value={code}
          onChange={setCode}
          disabled={busy || changed}
          validationMessage={problem('code')}
        />
      ) : null}
      {failure ? <ErrorBanner message={failure.banner} error={change.error} /> : null}
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
