import { Field, Input } from '@fluentui/react-components';
import { METRICS_VIEW } from './messages.js';

/** A custom range's first and last day; what is wrong with them (the API's words) shows under the first. */
export default function CustomRange({
  from,
  to,
  problem,
  onChange,
}: {
  from: string;
  to: string;
  problem: string | null;
  onChange: (days: { from: string } | { to: string }) => void;
}) {
  return (
    <>
      <Field
        label={METRICS_VIEW.from}
        validationMessage={problem ?? undefined}
        validationState={problem ? 'error' : 'none'}
      >
        <Input type="date" value={from} onChange={(_, data) => onChange({ from: data.value })} />
      </Field>
      <Field label={METRICS_VIEW.to}>
        <Input type="date" value={to} onChange={(_, data) => onChange({ to: data.value })} />
      </Field>
    </>
  );
}
