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
  Select,
  tokens,
} from '@fluentui/react-components';
import { DatePicker, type DatePickerErrorType } from '@fluentui/react-datepicker-compat';
import { BIOLOGICAL_SEXES } from '@ums/contracts/constants';
import type { UserDetails } from '@ums/contracts';
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { formFailure } from '../../../lib/field-errors.js';
import { parseCalendarDate } from '../../../lib/format.js';
import { useSaveUserDetails } from '../api/user-details.js';
import {
  formatPickerDate,
  parseTypedDate,
  toDraft,
  toInput,
  toIsoDate,
  type BiologicalSex,
  type PersonalDraft,
} from '../form-state.js';
import { PERSONAL_INFORMATION as T } from '../messages.js';

const useStyles = makeStyles({
  surface: { maxWidth: '640px', width: 'calc(100vw - 32px)' },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalL,
    '@media (max-width: 600px)': { gridTemplateColumns: '1fr' },
  },
  wide: { gridColumn: '1 / -1' },
});

export const EARLIEST_BIRTHDATE = new Date(1900, 0, 1);

type TextField = Exclude<keyof PersonalDraft, 'biologicalSex' | 'birthdate'>;

/** The API's names for the dialog's fields (the same; email is not in the dialog, so its errors go to the banner). */
const PERSONAL_FIELDS = Object.fromEntries(
  (
    [
      'firstName',
      'lastName',
      'biologicalSex',
      'birthdate',
      'phoneNumber',
      'streetAddress',
      'city',
      'stateProvince',
      'countryRegion',
      'postalCode',
    ] as const
  ).map((field) => [field, field]),
) as Readonly<Record<string, keyof PersonalDraft>>;

/** Edits a draft copy; Cancel discards it, Save sends it and shows what the server kept. */
export function EditPersonalInformationDialog({
  details,
  open,
  onClose,
}: {
  details: UserDetails | null;
  open: boolean;
  onClose: () => void;
}) {
  const styles = useStyles();
  // The surface's content mounts on each opening, so every opening starts from a fresh draft.
  return (
    <Dialog open={open} onOpenChange={(_, data) => (data.open ? undefined : onClose())}>
      <DialogSurface className={styles.surface}>
        <PersonalInformationForm details={details} onClose={onClose} />
      </DialogSurface>
    </Dialog>
  );
}

function PersonalInformationForm({ details, onClose }: { details: UserDetails | null; onClose: () => void }) {
  const styles = useStyles();
  const [draft, setDraft] = useState<PersonalDraft>(() => toDraft(details));
  const [dateError, setDateError] = useState<DatePickerErrorType | undefined>();
  const save = useSaveUserDetails();
  const set = <K extends keyof PersonalDraft>(key: K, value: PersonalDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const failure = save.isError ? formFailure(save.error, PERSONAL_FIELDS, T.saveFailed) : null;

  const text = (key: TextField, options: { placeholder?: string; wide?: boolean; type?: 'tel' } = {}) => (
    <Field
      label={T.fields[key]}
      className={options.wide ? styles.wide : undefined}
      validationMessage={failure?.fields[key]}
    >
      <Input
        value={draft[key]}
        type={options.type ?? 'text'}
        placeholder={options.placeholder}
        onChange={(_, data) => set(key, data.value)}
      />
    </Field>
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (dateError || save.isPending) return;
    save.mutate(toInput(draft, details?.email ?? null), { onSuccess: onClose });
  };

  const birthdate = draft.birthdate ? parseCalendarDate(draft.birthdate) : null;

  return (
    <form onSubmit={submit} noValidate>
      <DialogBody>
        <DialogTitle>{T.dialogTitle}</DialogTitle>
        <DialogContent>
          {failure ? <ErrorBanner message={failure.banner} error={save.error} /> : null}
          <div className={styles.grid}>
            {text('firstName')}
            {text('lastName')}
            <Field label={T.fields.biologicalSex} validationMessage={failure?.fields.biologicalSex}>
              <Select
                value={draft.biologicalSex}
                onChange={(_, data) => set('biologicalSex', data.value as BiologicalSex | '')}
              >
                <option value="">{T.placeholders.biologicalSex}</option>
                {BIOLOGICAL_SEXES.map((sex) => (
                  <option key={sex} value={sex}>
                    {sex}
                  </option>
                ))}
              </Select>
            </Field>
            <Field
              label={T.fields.birthdate}
              validationMessage={dateError ? T.dateErrors[dateError] : failure?.fields.birthdate}
              validationState={dateError || failure?.fields.birthdate ? 'error' : 'none'}
            >
              <DatePicker
                allowTextInput
                placeholder={T.placeholders.birthdate}
                value={birthdate}
                minDate={EARLIEST_BIRTHDATE}
                maxDate={new Date()}
                formatDate={formatPickerDate}
                parseDateFromString={(value) => parseTypedDate(value)}
                onSelectDate={(date) => set('birthdate', date ? toIsoDate(date) : '')}
                onValidationResult={(data) => setDateError(data.error)}
              />
            </Field>
            {text('phoneNumber', { placeholder: T.placeholders.phoneNumber, type: 'tel' })}
            {text('streetAddress', { wide: true })}
            {text('city')}
            {text('stateProvince')}
            {text('countryRegion')}
            {text('postalCode')}
          </div>
        </DialogContent>
        <DialogActions>
          <Button appearance="secondary" onClick={onClose} disabled={save.isPending}>
            {T.cancel}
          </Button>
          <Button appearance="primary" type="submit" disabled={save.isPending || Boolean(dateError)}>
            {save.isPending ? T.saving : T.save}
          </Button>
        </DialogActions>
      </DialogBody>
    </form>
  );
}
