import type { HeldPersonalInformation, UserDetails } from '@ums/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { subscriptions, userDetails } from '../../db/schema/index.js';
import { namedStatement, type Database } from '../../db/client.js';
import type { Queryable } from '../audit/audit.js';
import { jsonObject, jsonTime, type JsonFields } from '../lists/list-statements.js';

/** The member's details: every field of the contract, each from its column (the one definition of their shape). */
const DETAILS: JsonFields<UserDetails> = {
  firstName: userDetails.firstName,
  lastName: userDetails.lastName,
  email: userDetails.email,
  // Text whose check constraint allows only the contract's values.
  biologicalSex: sql<UserDetails['biologicalSex']>`${userDetails.biologicalSex}`,
  birthdate: userDetails.birthdate,
  phoneNumber: userDetails.phoneNumber,
  streetAddress: userDetails.streetAddress,
  city: userDetails.city,
  countryRegion: userDetails.countryRegion,
  stateProvince: userDetails.stateProvince,
  postalCode: userDetails.postalCode,
};

/**
 * What is held of a member's details (support's page, the data export), from `user_details` unaliased: the details
 * as the details route answers them, and when they were first saved and last changed.
 */
export const heldPersonalInformationJson = jsonObject<HeldPersonalInformation>({
  ...DETAILS,
  createdAt: jsonTime(userDetails.createdAt),
  updatedAt: jsonTime(userDetails.updatedAt),
});

/**
 * The details route's answer: the envelope's JSON text in one named prepared statement (the account page asks for it
 * first). A member who never saved any gets the same shape with nulls and the token's email (the one row of `values`
 * outer-joined to none).
 */
const detailsEnvelope = namedStatement<{ body: string }>(
  'user_details_envelope',
  sql`
  select json_build_object('isError', false, 'message', ${sql.placeholder('message')}::text,
           'data', json_build_array(${jsonObject<UserDetails>({
             ...DETAILS,
             email: sql<string | null>`coalesce(${userDetails.email}, ${sql.placeholder('email')})`,
           })}))::text as body
  from (values (1)) as one left join ${userDetails} on ${userDetails.subject} = ${sql.placeholder('subject')}`,
);

/** Every read and write of a member's own details and subscriptions. */
export const memberRepository = {
  async detailsEnvelope(
    db: Database,
    owner: { subject: string; email: string | null },
    message: string,
  ): Promise<string> {
    const [row] = await detailsEnvelope(db, { ...owner, message });
    return row!.body;
  },

  /** Inserts or replaces the subject's details. */
  async saveDetails(q: Queryable, subject: string, values: UserDetails): Promise<void> {
    await q
      .insert(userDetails)
      .values({ subject, ...values })
      .onConflictDoUpdate({ target: userDetails.subject, set: { ...values, updatedAt: new Date() } });
  },

  /** Marks one of the subject's active subscriptions cancelled; false when there is none such. */
  async cancelSubscription(q: Queryable, subject: string, id: number): Promise<boolean> {
    const cancelled = await q
      .update(subscriptions)
      .set({ cancelledAt: new Date() })
      .where(
        and(
          eq(subscriptions.subscriptionId, id),
          eq(subscriptions.subject, subject),
          isNull(subscriptions.cancelledAt),
        ),
      )
      .returning({ id: subscriptions.subscriptionId });
    return cancelled.length > 0;
  },
};
