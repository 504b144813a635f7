import type { UserDetails } from '@ums/contracts';
import { formatLongDate } from '../../lib/format.js';
import { PERSONAL_INFORMATION } from './messages.js';

// Apart from form-state.ts: the section shows these rows on the first load, the dialog's helpers load with it.
const shown = (value: string | null | undefined) => (value?.trim() ? value.trim() : PERSONAL_INFORMATION.notProvided);

/** The read-only rows, in the SPEC's order. */
export function displayRows(details: UserDetails | null) {
  const name = [details?.firstName, details?.lastName].filter((part) => part?.trim()).join(' ');
  const address = [details?.streetAddress, details?.city, details?.stateProvince, details?.postalCode]
    .filter((part) => part?.trim())
    .join(', ');
  const rows = PERSONAL_INFORMATION.rows;
  return [
    { label: rows.fullName, value: shown(name) },
    { label: rows.email, value: shown(details?.email) },
    { label: rows.biologicalSex, value: shown(details?.biologicalSex) },
    {
      label: rows.birthdate,
      value: details?.birthdate ? formatLongDate(details.birthdate) : PERSONAL_INFORMATION.notProvided,
    },
    { label: rows.phoneNumber, value: shown(details?.phoneNumber) },
    { label: rows.address, value: shown(address) },
  ];
}
