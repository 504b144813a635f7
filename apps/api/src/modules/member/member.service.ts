import type { userDetailsInputSchema } from '@ums/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { subscriptions, userDetails } from '../../db/schema/index.js';
import type { AuthUser } from '../../plugins/auth.js';
import { notFound } from '../../plugins/http-errors.js';

type DetailsFields = z.output<typeof userDetailsInputSchema>;

const blankToNull = (value: string) => (value === '' ? null : value);

export function createMemberService({ db }: { db: Database }) {
  /**
   * The caller's details as the envelope's JSON text, built by PostgreSQL in one prepared statement (as the lists'
   * answers are): the account page asks for them first. A member who never saved any gets the same shape with
   * nulls and the token's email (the one row of `values` outer-joined to none).
   */
  async function detailsText(user: AuthUser, message = ''): Promise<string> {
    const { rows } = await db.$client.query<{ body: string }>({
      name: 'user_details_envelope',
      text: `select json_build_object('isError', false, 'message', $3::text, 'data', json_build_array(json_build_object(
               'firstName', u.first_name, 'lastName', u.last_name, 'email', coalesce(u.email, $2),
               'biologicalSex', u.biological_sex, 'birthdate', u.birthdate, 'phoneNumber', u.phone_number,
               'streetAddress', u.street_address, 'city', u.city, 'countryRegion', u.country_region,
               'stateProvince', u.state_province, 'postalCode', u.postal_code)))::text as body
             from (values (1)) as one left join user_details u on u.subject = $1`,
      values: [user.subject, user.email, message],
    });
    return rows[0]!.body;
  }

  return {
    detailsText,

    /** Saves the caller's own details (the owner is always the token's subject) and answers them as saved. */
    async saveDetails(user: AuthUser, fields: DetailsFields): Promise<string> {
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
      return detailsText(user, 'Details saved');
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
