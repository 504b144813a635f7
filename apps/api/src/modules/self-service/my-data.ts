import type { DeviceSession, HeldPersonalInformation, HeldSubscription, SecurityActivity } from '@ums/contracts';
import type { Pool } from 'pg';
import type { AuthUser } from '../../plugins/auth.js';
import { sqlText } from '../lists/list-statements.js';
import { heldPersonalInformationJson } from '../member/member.repository.js';

/** What is held about one subject, as PostgreSQL builds it below. */
export interface HeldData {
  account: { email: string; groups: string[]; createdAt: string; updatedAt: string } | null;
  personalInformation: HeldPersonalInformation | null;
  /** Null when left out (support pages through them instead). */
  orders:
    | {
        orderId: number;
        date: string;
        status: string;
        totalAmount: number;
        items: { productName: string; price: number }[];
      }[]
    | null;
  subscriptions: HeldSubscription[];
  securityActivity: SecurityActivity[];
  accountDeletion: { requestedAt: string; deleteAfter: string } | null;
}

const PERSONAL_INFORMATION = sqlText(heldPersonalInformationJson);

/**
 * Everything held about a member, for "Download my data" (GDPR articles 15 and 20): the account, personal
 * information, orders with their items, subscriptions (cancelled ones too), live sessions, security activity and a
 * pending deletion. One JSON document, built by PostgreSQL where the data lives.
 */
export function createMyData({
  pool,
  company,
  provider,
  sessionsOf,
}: {
  pool: Pool;
  company: string;
  provider: string;
  /** The member's live sessions (the embedded provider's), or none with another provider. */
  sessionsOf: (user: AuthUser) => Promise<DeviceSession[]>;
}) {
  /**
   * What is held about one subject, by kind (the account only if the embedded provider keeps it): support's view.
   * Without `orders` the orders are left out (support pages through them instead).
   */
  async function collect(subject: string, { orders = true } = {}): Promise<HeldData> {
    const { rows } = await pool.query<{ data: HeldData }>(
      `select json_build_object(
         'account', (select json_build_object('email', a.email, 'groups', a.groups, 'createdAt', a.created_at,
                                              'updatedAt', a.updated_at)
                     from accounts a where a.account_id::text = $1),
         'personalInformation', (select ${PERSONAL_INFORMATION} from user_details where user_details.subject = $1),
         'orders', case when $2::boolean then coalesce((select json_agg(json_build_object(
             'orderId', o.order_id, 'date', o.ordered_at, 'status', o.status, 'totalAmount', o.total_amount,
             'items', coalesce((select json_agg(json_build_object('productName', i.product_name, 'price', i.price)
                                                order by i.position)
                                from order_items i where i.order_id = o.order_id), '[]'::json))
             order by o.ordered_at desc, o.order_id desc)
           from orders o where o.subject = $1), '[]'::json) end,
         'subscriptions', coalesce((select json_agg(json_build_object(
             'subscriptionId', s.subscription_id, 'createdAt', s.created_at, 'cancelledAt', s.cancelled_at,
             'pricePerInterval', s.price_per_interval, 'billingInterval', s.billing_interval,
             'billingPeriod', s.billing_period,
             'products', coalesce((select json_agg(p.name order by sp.position)
                                   from subscription_products sp join products p on p.product_id = sp.product_id
                                   where sp.subscription_id = s.subscription_id), '[]'::json))
             order by s.created_at, s.subscription_id)
           from subscriptions s where s.subject = $1), '[]'::json),
         'securityActivity', coalesce((select json_agg(json_build_object(
             'at', e.at, 'event', e.event, 'browser', e.browser, 'os', e.os, 'ipAddress', e.ip_address)
             order by e.at desc, e.id desc)
           from security_events e where e.subject = $1), '[]'::json),
         'accountDeletion', (select json_build_object('requestedAt', x.requested_at, 'deleteAfter', x.delete_after)
                             from account_deletions x where x.subject = $1)
       ) as data`,
      [subject, orders],
    );
    return rows[0]!.data;
  }

  /** The member's own copy: what is held, with who holds it and the sessions their provider keeps. */
  async function exportFor(user: AuthUser) {
    const data = await collect(user.subject);
    return {
      exportedAt: new Date().toISOString(),
      controller: company,
      subject: user.subject,
      identityProvider: provider,
      // With another provider the account lives there; what its token says about the member is what we know.
      account: data.account ?? { email: user.email, groups: user.groups },
      personalInformation: data.personalInformation,
      orders: data.orders,
      subscriptions: data.subscriptions,
      sessions: await sessionsOf(user),
      securityActivity: data.securityActivity,
      accountDeletion: data.accountDeletion,
    };
  }

  return { exportFor, collect };
}

export type MyData = ReturnType<typeof createMyData>;
