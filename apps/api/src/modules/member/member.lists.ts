import type { HeldSubscription, PaymentHistoryEntry, Subscription } from '@ums/contracts';
import { sql, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  listCounts,
  orderItems,
  orders,
  products,
  subscriptionProducts,
  subscriptions,
} from '../../db/schema/index.js';
import {
  float8,
  isoTime,
  jsonObject,
  jsonTime,
  key,
  scopeValue,
  tableAs,
  type JsonFields,
  type ListDefinition,
} from '../lists/list-statements.js';

const o = alias(orders, 'o');
const i = alias(orderItems, 'i');
const subject = scopeValue(0);

/**
 * The caller's (`scopeValue(0)`) orders, newest first unless sorted otherwise; a search finds an order number, or the
 * orders whose product names have words starting with each typed word.
 */
export const paymentHistoryList: ListDefinition<'paymentHistory'> = {
  list: 'paymentHistory',
  name: 'orders',
  from: tableAs(orders, 'o'),
  scope: sql`${o.subject} = ${subject}`,
  search: ({ number, words }) => sql`${o.orderId} = ${number} or to_tsvector('simple', ${o.itemNames}) @@ ${words}`,
  sorts: {
    date: { keys: [key(o.orderedAt), key(o.orderId)] },
    orderId: { keys: [key(o.orderId)] },
    totalAmount: { keys: [key(o.totalAmount), key(o.orderId)] },
    status: { keys: [key(o.status), key(o.orderId)] },
    productNames: { keys: [key(o.itemNames), key(o.orderId)] },
  },
  item: jsonObject<PaymentHistoryEntry>({
    orderId: o.orderId,
    totalAmount: float8(o.totalAmount),
    date: isoTime(o.orderedAt),
    status: o.status,
    productNames: sql<string[]>`coalesce((select json_agg(${i.productName} order by ${i.position})
                                          from ${tableAs(orderItems, 'i')} where ${i.orderId} = ${o.orderId}), '[]'::json)`,
  }),
  total: sql`coalesce((select ${listCounts.n} from ${listCounts} where ${listCounts.key} = 'orders:' || ${subject}::text), 0)`,
};

/** An order as held (the data export): as it was charged, with its items. */
export interface HeldOrder {
  orderId: number;
  date: string;
  status: string;
  totalAmount: number;
  /** An item's price is null on orders recorded before item prices were kept. */
  items: { productName: string; price: number | null }[];
}

/** Every order of `subject` as held (the data export): newest first, each with its items in order. */
export const heldOrdersOf = (subject: SQLWrapper) => sql<HeldOrder[]>`coalesce((
  select json_agg(${jsonObject<HeldOrder>({
    orderId: o.orderId,
    date: jsonTime(o.orderedAt),
    status: o.status,
    totalAmount: float8(o.totalAmount),
    items: sql<HeldOrder['items']>`coalesce((
      select json_agg(${jsonObject<HeldOrder['items'][number]>({ productName: i.productName, price: float8(i.price) })}
                      order by ${i.position})
      from ${tableAs(orderItems, 'i')} where ${i.orderId} = ${o.orderId}), '[]'::json)`,
  })} order by ${o.orderedAt} desc, ${o.orderId} desc)
  from ${tableAs(orders, 'o')} where ${o.subject} = ${subject}), '[]'::json)`;

const s = alias(subscriptions, 's');
const sp = alias(subscriptionProducts, 'sp');
const p = alias(products, 'p');

/** What a member's subscription list and what is held of a subscription both say of it, from `subscriptions s`. */
const subscriptionFields: JsonFields<Omit<Subscription, 'products'>> = {
  subscriptionId: s.subscriptionId,
  pricePerInterval: float8(s.pricePerInterval),
  billingInterval: s.billingInterval,
  billingPeriod: s.billingPeriod,
};

/** The caller's (`scopeValue(0)`) active subscriptions, oldest first; a search finds product names. */
export const subscriptionList: ListDefinition<'subscriptions'> = {
  list: 'subscriptions',
  name: 'subscriptions',
  from: tableAs(subscriptions, 's'),
  scope: sql`${s.subject} = ${subject} and ${s.cancelledAt} is null`,
  search: ({ contains }) =>
    sql`exists (select 1 from ${tableAs(subscriptionProducts, 'sp')} join ${tableAs(products, 'p')} on ${p.productId} = ${sp.productId}
                where ${sp.subscriptionId} = ${s.subscriptionId} and ${contains(p.name)})`,
  sorts: {
    createdAt: { keys: [key(s.createdAt), key(s.subscriptionId)] },
    pricePerInterval: { keys: [key(s.pricePerInterval), key(s.subscriptionId)] },
  },
  item: jsonObject<Subscription>({
    ...subscriptionFields,
    products: sql<Subscription['products']>`coalesce((
      select json_agg(${jsonObject<Subscription['products'][number]>({ productName: p.name, imageUrl: p.imageUrl })} order by ${sp.position})
      from ${tableAs(subscriptionProducts, 'sp')}
      -- Each product by its key: "offset 0" keeps the planner from hashing the whole catalog once per subscription
      -- (3 ms instead of 0.7 ms at 22 subscriptions and 2,000 products).
      cross join lateral (select ${products.name}, ${products.imageUrl} from ${products}
                          where ${products.productId} = ${sp.productId} offset 0) ${sql.identifier('p')}
      where ${sp.subscriptionId} = ${s.subscriptionId}), '[]'::json)`,
  }),
  total: sql`(select count(*) from ${subscriptions} where ${subscriptions.subject} = ${subject} and ${subscriptions.cancelledAt} is null)`,
};

const { subscriptionId, ...subscriptionTerms } = subscriptionFields;

/**
 * Every subscription of `subject` as held (support's page, the data export): oldest first, cancelled ones too, each
 * with when it began and ended and its products by name.
 */
export const heldSubscriptionsOf = (subject: SQLWrapper) => sql<HeldSubscription[]>`coalesce((
  select json_agg(${jsonObject<HeldSubscription>({
    // In the order the data export has always listed them.
    subscriptionId,
    createdAt: jsonTime(s.createdAt),
    cancelledAt: jsonTime(s.cancelledAt),
    ...subscriptionTerms,
    products: sql<string[]>`coalesce((select json_agg(${p.name} order by ${sp.position})
                                      from ${tableAs(subscriptionProducts, 'sp')} join ${tableAs(products, 'p')} on ${p.productId} = ${sp.productId}
                                      where ${sp.subscriptionId} = ${s.subscriptionId}), '[]'::json)`,
  })} order by ${s.createdAt}, ${s.subscriptionId})
  from ${tableAs(subscriptions, 's')} where ${s.subject} = ${subject}), '[]'::json)`;
