import { Field, Input } from '@fluentui/react-components';
import { SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';

/** A passkey's name: one line, required, with the rule as a hint until a problem replaces it. */
export function PasskeyNameField({
  value,
  problem,
  onChange,
}: {
  value: string;
  problem: string | null;
  onChange: (value: string) => void;
}) {
  return (
    <Field
      label={T.passkeyNameLabel}
      required
      hint={problem ? undefined : T.passkeyNameHint}
      validationMessage={problem ?? undefined}
    >
      <Input value={value} onChange={(_, data) => onChange(data.value)} autoComplete="off" />
    </Field>
  );
}
