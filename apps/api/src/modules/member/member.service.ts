import { userDetailsInputSchema, type PaymentHistoryEntry, type UserDetails } from '@ums/contracts';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { toMoney } from '../../db/money.js';
import { orderItems, orders, subscriptions, userDetails } from '../../db/schema/index.js';
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

/**
 * The caller's active subscriptions as the whole answer envelope, built by PostgreSQL: the hot read of the account
 * page sends it as it comes, without rebuilding and re-validating the objects in JavaScript.
 */
const ACTIVE_SUBSCRIPTIONS_ENVELOPE = `
  select json_build_object('isError', false, 'message', '', 'data', coalesce(json_agg(json_build_object(
    'subscriptionId', s.subscription_id,
    'pricePerInterval', s.price_per_interval::float8,
    'billingInterval', s.billing_interval,
    'billingPeriod', s.billing_period,
    'products', coalesce((
      select json_agg(json_build_object('productName', p.name, 'imageUrl', p.image_url) order by sp.position)
      from subscription_products sp
      -- Each product by its key: "offset 0" keeps the planner from hashing the whole catalog once per subscription
      -- (3 ms instead of 0.7 ms at 22 subscriptions and 2,000 products).
      cross join lateral (select name, image_url from products where product_id = sp.product_id offset 0) p
      where sp.subscription_id = s.subscription_id), '[]'::json)
  ) order by s.created_at, s.subscription_id), '[]'::json))::text as body
  from subscriptions s
  where s.subject = $1 and s.cancelled_at is null`;

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

    /** The caller's active subscriptions with their products, as the JSON text of the whole answer. */
    async subscriptionsEnvelope(user: AuthUser): Promise<string> {
      const { rows } = await db.$client.query<{ body: string }>({
        name: 'active_subscriptions_envelope',
        text: ACTIVE_SUBSCRIPTIONS_ENVELOPE,
        values: [user.subject],
      });
      return rows[0]!.body;
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

    async paymentHistory(user: AuthUser): Promise<PaymentHistoryEntry[]> {
      const rows = await db.query.orders.findMany({
        where: eq(orders.subject, user.subject),
        with: { items: { orderBy: [asc(orderItems.position)] } },
        orderBy: [desc(orders.orderedAt), desc(orders.orderId)],
      });
      return rows.map((r) => ({
        orderId: r.orderId,
        totalAmount: toMoney(r.totalAmount),
        date: r.orderedAt.toISOString(),
        status: r.status,
        productNames: r.items.map((i) => i.productName),
      }));
    },
  };
}
