import { legacyKey as key, type ListSpec } from '../lists/list-statements.js';

/**
 * The caller's ($1) orders, newest first unless sorted otherwise; a search finds an order number, or the orders whose
 * product names have words starting with each typed word.
 */
export const paymentHistoryList: ListSpec<'paymentHistory'> = {
  list: 'paymentHistory',
  name: 'orders',
  from: 'orders o',
  scope: 'o.subject = $1',
  scopeValues: 1,
  search: `o.order_id = {number} or to_tsvector('simple', o.item_names) @@ {words}`,
  sorts: {
    date: { keys: [key('o.ordered_at', 'timestamptz'), key('o.order_id', 'int4')] },
    orderId: { keys: [key('o.order_id', 'int4')] },
    totalAmount: { keys: [key('o.total_amount', 'numeric'), key('o.order_id', 'int4')] },
    status: { keys: [key('o.status', 'text'), key('o.order_id', 'int4')] },
    productNames: { keys: [key('o.item_names', 'text'), key('o.order_id', 'int4')] },
  },
  item: `json_build_object(
    'orderId', o.order_id, 'totalAmount', o.total_amount::float8,
    'date', to_char(o.ordered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'status', o.status,
    'productNames', coalesce((select json_agg(i.product_name order by i.position)
                              from order_items i where i.order_id = o.order_id), '[]'::json))`,
  total: `coalesce((select n from list_counts where key = 'orders:' || $1), 0)`,
};

/** The caller's ($1) active subscriptions, oldest first; a search finds product names. */
export const subscriptionList: ListSpec<'subscriptions'> = {
  list: 'subscriptions',
  name: 'subscriptions',
  from: 'subscriptions s',
  scope: 's.subject = $1 and s.cancelled_at is null',
  scopeValues: 1,
  search: `exists (select 1 from subscription_products sp join products p on p.product_id = sp.product_id
                   where sp.subscription_id = s.subscription_id and p.name ilike {pattern})`,
  sorts: {
    createdAt: { keys: [key('s.created_at', 'timestamptz'), key('s.subscription_id', 'int4')] },
    pricePerInterval: { keys: [key('s.price_per_interval', 'numeric'), key('s.subscription_id', 'int4')] },
  },
  item: `json_build_object(
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
      where sp.subscription_id = s.subscription_id), '[]'::json))`,
  total: '(select count(*) from subscriptions where subject = $1 and cancelled_at is null)',
};
