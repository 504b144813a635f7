import type { userDetailsInputSchema } from '@ums/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import type { AuthUser } from '../../plugins/auth.js';
import { notFound } from '../../plugins/http-errors.js';
import { memberRepository } from './member.repository.js';

type DetailsFields = z.output<typeof userDetailsInputSchema>;

const blankToNull = (value: string) => (value === '' ? null : value);

export function createMemberService({ db }: { db: Database }) {
  /** The caller's details as the envelope's JSON text (see `memberRepository.detailsEnvelope`). */
  const detailsText = (user: AuthUser, message = ''): Promise<string> =>
    memberRepository.detailsEnvelope(db, { subject: user.subject, email: user.email }, message);

  return {
    detailsText,

    /** Saves the caller's own details (the owner is always the token's subject) and answers them as saved. */
    async saveDetails(user: AuthUser, fields: DetailsFields): Promise<string> {
      await memberRepository.saveDetails(db, user.subject, {
        firstName: blankToNull(fields.firstName),
        lastName: blankToNull(fields.lastName),
        email: blankToNull(fields.email) ?? user.email,
        biologicalSex: fields.biologicalSex ?? null,
        birthdate: fields.birthdate ?? null,
        phoneNumber: fields.phoneNumber,
        streetAddress: fields.streetAddress,
        city: fields.city,
        countryRegion: fields.countryRegion,
        stateProvince: fields.stateProvince,
        postalCode: fields.postalCode,
      });
      return detailsText(user, 'Details saved');
    },

    /** Cancels one of the caller's subscriptions; it stays in the database with its cancellation time. */
    async cancelSubscription(user: AuthUser, id: number): Promise<void> {
      // Another member's subscription answers exactly like one that does not exist.
      if (!(await memberRepository.cancelSubscription(db, user.subject, id))) throw notFound(`Subscription ${id}`);
    },
  };
}
