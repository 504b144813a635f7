import { Field, Input } from '@fluentui/react-components';
import { SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';

/** The second factor's code beside the password, for an account that has one: an authenticator or recovery code. */
export function ConfirmationCodeField({
  value,
  onChange,
  disabled,
  validationMessage,
}: {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  /** The server's word on the code (a wrong or used code). */
  validationMessage?: string;
}) {
  return (
    <Field label={T.confirmationCodeLabel} hint={T.confirmationCodeHint} required validationMessage={validationMessage}>
      <Input
        value={value}
        autoComplete="one-time-code"
        spellCheck={false}
        maxLength={64}
        disabled={disabled}
        onChange={(_, data) => onChange(data.value)}
      />
    </Field>
  );
}
