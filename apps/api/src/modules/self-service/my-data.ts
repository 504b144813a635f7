import type { DeviceSession, HeldPersonalInformation, HeldSubscription, SecurityActivity } from '@ums/contracts';
import { fillPlaceholders, sql } from 'drizzle-orm';
import { alias, PgDialect } from 'drizzle-orm/pg-core';
import type { Pool } from 'pg';
import { accountDeletions, accounts, emailChanges, userDetails } from '../../db/schema/index.js';
import type { AuthUser } from '../../plugins/auth.js';
import { jsonObject, jsonTime, tableAs } from '../lists/list-statements.js';
import { heldOrdersOf, heldSubscriptionsOf, type HeldOrder } from '../member/member.lists.js';
import { heldPersonalInformationJson } from '../member/member.repository.js';
import { heldActivityOf } from '../security/security.lists.js';
import { isAccountId } from '../../identity/account-id.js';

/** The account as the embedded provider keeps it. */
interface HeldAccount {
  email: string;
  emailVerified: boolean;
  groups: string[];
  createdAt: string;
  updatedAt: string;
}

/** What is held about one subject, as PostgreSQL builds it below. */
export interface HeldData {
  account: HeldAccount | null;
  personalInformation: HeldPersonalInformation | null;
  /** Null when left out (support pages through them instead). */
  orders: HeldOrder[] | null;
  subscriptions: HeldSubscription[];
  /** Null when left out (support pages through it instead). */
  securityActivity: SecurityActivity[] | null;
  accountDeletion: { requestedAt: string; deleteAfter: string } | null;
  /** The member's changes of email address, oldest first: both addresses, and when each step happened. */
  emailChanges: HeldEmailChange[];
}

interface HeldEmailChange {
  oldEmail: string;
  newEmail: string;
  requestedAt: string;
  confirmedAt: string | null;
  cancelledAt: string | null;
  revertedAt: string | null;
}

const subject = sql.placeholder('subject');
const a = alias(accounts, 'a');
const x = alias(accountDeletions, 'x');

const account = sql<HeldAccount | null>`(
  select ${jsonObject<HeldAccount>({
    email: a.email,
    emailVerified: a.emailVerified,
    groups: a.groups,
    createdAt: jsonTime(a.createdAt),
    updatedAt: jsonTime(a.updatedAt),
  })}
  from ${tableAs(accounts, 'a')} where ${isAccountId(a.accountId, subject)})`;

const personalInformation = sql<HeldPersonalInformation | null>`(
  select ${heldPersonalInformationJson} from ${userDetails} where ${userDetails.subject} = ${subject})`;

const accountDeletion = sql<HeldData['accountDeletion']>`(
  select ${jsonObject<NonNullable<HeldData['accountDeletion']>>({
    requestedAt: jsonTime(x.requestedAt),
    deleteAfter: jsonTime(x.deleteAfter),
  })}
  from ${tableAs(accountDeletions, 'x')} where ${x.subject} = ${subject})`;

const e = alias(emailChanges, 'e');
const heldEmailChanges = sql<HeldEmailChange[]>`coalesce((
  select json_agg(${jsonObject<HeldEmailChange>({
    oldEmail: e.oldEmail,
    newEmail: e.newEmail,
    requestedAt: jsonTime(e.createdAt),
    confirmedAt: sql<string | null>`${jsonTime(e.confirmedAt)}`,
    cancelledAt: sql<string | null>`${jsonTime(e.cancelledAt)}`,
    revertedAt: sql<string | null>`${jsonTime(e.revertedAt)}`,
  })} order by ${e.createdAt}, ${e.id})
  from ${tableAs(emailChanges, 'e')} where ${isAccountId(e.accountId, subject)}), '[]'::json)`;

/** Everything held about `subject` as one JSON document; its orders and its activity only when asked for. */
const HELD_DATA = new PgDialect().sqlToQuery(
  sql`select ${jsonObject<HeldData>({
    account,
    personalInformation,
    orders: sql<HeldOrder[] | null>`case when ${sql.placeholder('orders')}::boolean then ${heldOrdersOf(subject)} end`,
    subscriptions: heldSubscriptionsOf(subject),
    securityActivity: sql<
      SecurityActivity[] | null
    >`case when ${sql.placeholder('activity')}::boolean then ${heldActivityOf(subject)} end`,
    accountDeletion,
    emailChanges: heldEmailChanges,
  })} as data`,
);

/**
 * Everything held about a member, for "Download my data" (GDPR articles 15 and 20): the account, personal
 * information, orders with their items, subscriptions (cancelled ones too), live sessions, security activity, a
 * pending deletion and changes of email address. One JSON document, built by PostgreSQL where the data lives.
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
   * Without `orders` or `activity` those are left out (support pages through them instead).
   */
  async function collect(subject: string, { orders = true, activity = true } = {}): Promise<HeldData> {
    const { rows } = await pool.query<{ data: HeldData }>(
      HELD_DATA.sql,
      fillPlaceholders(HELD_DATA.params, { subject, orders, activity }),
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
      emailChanges: data.emailChanges,
    };
  }

  return { exportFor, collect };
}

export type MyData = ReturnType<typeof createMyData>;
