import { Field, Input } from '@fluentui/react-components';
import { SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';

/** The second factor's code beside the password, for an account that has one: an authenticator or recovery code. */
export function ConfirmationCodeField({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  return (
    <Field label={T.confirmationCodeLabel} hint={T.confirmationCodeHint} required>
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
