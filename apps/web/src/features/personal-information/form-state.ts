import { BIOLOGICAL_SEXES } from '@ums/contracts/constants';
import type { UserDetails, UserDetailsInput } from '@ums/contracts';
import { parseCalendarDate } from '../../lib/format.js';

export type BiologicalSex = (typeof BIOLOGICAL_SEXES)[number];

/** The dialog's working copy: every field a string, '' for no value. */
export interface PersonalDraft {
  firstName: string;
  lastName: string;
  biologicalSex: BiologicalSex | '';
  /** YYYY-MM-DD or ''. */
  birthdate: string;
  phoneNumber: string;
  streetAddress: string;
  city: string;
  stateProvince: string;
  countryRegion: string;
  postalCode: string;
}

const OPTIONAL = ['phoneNumber', 'streetAddress', 'city', 'stateProvince', 'countryRegion', 'postalCode'] as const;

export function toDraft(details: UserDetails | null): PersonalDraft {
  const birthdate = details?.birthdate && parseCalendarDate(details.birthdate) ? details.birthdate.slice(0, 10) : '';
  return {
    firstName: details?.firstName ?? '',
    lastName: details?.lastName ?? '',
    biologicalSex: details?.biologicalSex ?? '',
    birthdate,
    phoneNumber: details?.phoneNumber ?? '',
    streetAddress: details?.streetAddress ?? '',
    city: details?.city ?? '',
    stateProvince: details?.stateProvince ?? '',
    countryRegion: details?.countryRegion ?? '',
    postalCode: details?.postalCode ?? '',
  };
}

/** SPEC section 5: empty optional fields are sent as absent; names and email as (possibly empty) strings. */
export function toInput(draft: PersonalDraft, email: string | null): UserDetailsInput {
  const input: UserDetailsInput = {
    firstName: draft.firstName.trim(),
    lastName: draft.lastName.trim(),
    email: email ?? '',
  };
  if (draft.biologicalSex) input.biologicalSex = draft.biologicalSex;
  if (draft.birthdate) input.birthdate = draft.birthdate;
  for (const key of OPTIONAL) {
    const value = draft[key].trim();
    if (value) input[key] = value;
  }
  return input;
}

/** "4/23/1990" or "1990-04-23" typed into the date picker. */
export function parseTypedDate(text: string): Date | null {
  const trimmed = text.trim();
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  if (us) {
    const [month, day, year] = [Number(us[1]), Number(us[2]), Number(us[3])];
    const date = new Date(year, month - 1, day);
    return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day ? date : null;
  }
  return parseCalendarDate(trimmed);
}

export const formatPickerDate = (date?: Date) =>
  date ? `${date.getMonth() + 1}/${date.getDate()}/${date.getFullYear()}` : '';

export const toIsoDate = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
