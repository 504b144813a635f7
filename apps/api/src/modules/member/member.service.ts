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

  /**
   * The caller's details as the envelope's JSON text, built by PostgreSQL from the row (one prepared statement): the
   * account page asks for them first, so neither the row's fifteen columns nor an object are made here.
   */
  async function detailsText(user: AuthUser): Promise<string> {
    const { rows } = await db.$client.query<{ details: string }>({
      name: 'user_details_json_by_subject',
      text: `select json_build_object(
               'firstName', first_name, 'lastName', last_name, 'email', coalesce(email, $2),
               'biologicalSex', biological_sex, 'birthdate', birthdate, 'phoneNumber', phone_number,
               'streetAddress', street_address, 'city', city, 'countryRegion', country_region,
               'stateProvince', state_province, 'postalCode', postal_code)::text as details
             from user_details where subject = $1`,
      values: [user.subject, user.email],
    });
    const details = rows[0]?.details ?? JSON.stringify(emptyDetails(user.email));
    return `{"isError":false,"message":"","data":[${details}]}`;
  }

  return {
    details,
    detailsText,

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
