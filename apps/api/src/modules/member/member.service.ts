import { userDetailsInputSchema, type UserDetails } from '@ums/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { subscriptions, userDetails } from '../../db/schema/index.js';
import type { AuthUser } from '../../plugins/auth.js';
import { notFound } from '../../plugins/http-errors.js';

type DetailsFields = z.output<typeof userDetailsInputSchema>;

const emptyDetails = (email: string | null): UserDetails => ({
  firstName: null,
  lastName: null,
  email,
  biologicalSex: null,
  birthdate: null,
  phoneNumber: null,
  streetAddress: null,
  city: null,
  countryRegion: null,
  stateProvince: null,
  postalCode: null,
});

const blankToNull = (value: string) => (value === '' ? null : value);

export function createMemberService({ db }: { db: Database }) {
  // The member's reads are named prepared statements, parsed and planned once per connection.
  const detailsOf = db.query.userDetails
    .findFirst({ where: eq(userDetails.subject, sql.placeholder('subject')) })
    .prepare('user_details_by_subject');

  async function details(user: AuthUser): Promise<UserDetails> {
    const row = await detailsOf.execute({ subject: user.subject });
    if (!row) return emptyDetails(user.email);
    return {
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email ?? user.email,
      biologicalSex: row.biologicalSex === 'Male' || row.biologicalSex === 'Female' ? row.biologicalSex : null,
      birthdate: row.birthdate,
      phoneNumber: row.phoneNumber,
      streetAddress: row.streetAddress,
      city: row.city,
      countryRegion: row.countryRegion,
      stateProvince: row.stateProvince,
      postalCode: row.postalCode,
    };
  }

  return {
    details,

    /** Saves the caller's own details; the owner is always the token's subject. */
    async saveDetails(user: AuthUser, fields: DetailsFields): Promise<UserDetails> {
      const values = {
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
      };
      await db
        .insert(userDetails)
        .values({ subject: user.subject, ...values })
        .onConflictDoUpdate({ target: userDetails.subject, set: { ...values, updatedAt: new Date() } });
      return details(user);
    },

    /** Cancels one of the caller's subscriptions; it stays in the database with its cancellation time. */
    async cancelSubscription(user: AuthUser, id: number): Promise<void> {
      const cancelled = await db
        .update(subscriptions)
        .set({ cancelledAt: new Date() })
        .where(
          and(
            eq(subscriptions.subscriptionId, id),
            eq(subscriptions.subject, user.subject),
            isNull(subscriptions.cancelledAt),
          ),
        )
        .returning();
      // Another member's subscription answers exactly like one that does not exist.
      if (cancelled.length === 0) throw notFound(`Subscription ${id}`);
    },
  };
}
