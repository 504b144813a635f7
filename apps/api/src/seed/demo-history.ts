import { asc, lte } from 'drizzle-orm';
import { hasRows, type Database } from '../db/client.js';
import {
  accounts,
  memberships,
  orderItems,
  orders,
  products,
  securityEvents,
  subscriptionProducts,
  subscriptions,
} from '../db/schema/index.js';
import { NO_PASSWORD } from '../identity/password-hash.js';
import { todayIn } from '@ums/contracts/metrics';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * What the demo history holds, as the README states it: a year of a small business so a new install's overview has
 * something to draw. Members join every month (more each month), order on joining and some months after, some keep
 * a subscription; the last 89 days have sign-ins (the product keeps security activity 90 days).
 */
export const DEMO_HISTORY = {
  /** Full calendar months before the current one; the current month has its days before today. */
  fullMonths: 11,
  /** The domain of the demo members' addresses (reserved for examples: no mail reaches anyone). */
  domain: 'example.com',
  signInDays: 89,
} as const;

const FIRST_NAMES =
  'Ava Liam Noah Emma Olivia Mateo Sofia Elijah Amara Lucas Mia Ethan Zoe Kai Nora Leo Aria Omar Ivy Hugo'.split(' ');
const LAST_NAMES =
  'Garcia Chen Patel Nguyen Okafor Rossi Kim Silva Novak Haddad Jensen Moreau Tanaka Walsh Reyes Dubois'.split(' ');
const BROWSERS = [
  ['Chrome 142', 'Windows 11'],
  ['Safari 19', 'iOS 19'],
  ['Chrome 142', 'Android 16'],
  ['Firefox 145', 'macOS 16'],
  ['Edge 142', 'Windows 11'],
] as const;

/** mulberry32: the same numbers on every install, so the README's figures hold. */
function numbers(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, below: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
}

/** The rows in batches of `size`: one insert each, within PostgreSQL's limit of parameters per statement. */
const batches = <T>(rows: T[], size = 500) =>
  Array.from({ length: Math.ceil(rows.length / size) }, (_, index) => rows.slice(index * size, (index + 1) * size));

/**
 * One formatter per time zone for the whole history: a formatter per moment (thousands of them) left about 80 MB of
 * ICU's memory in the process's malloc heap after the first start, never given back (issue 39's footprint).
 */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone` is ahead of UTC at `at`, in minutes (negative west of Greenwich). */
function offsetMinutes(timeZone: string, at: Date): number {
  let format = offsetFormats.get(timeZone);
  if (!format)
    offsetFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })));
  const name = format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

/**
 * The moment `minutes` past midnight on a calendar day in the company's time zone (daytime only, so a change to or
 * from summer time, at night, never makes it ambiguous): the day the overview counts it on is the day it was made.
 */
function atLocal(timeZone: string, year: number, monthIndex: number, day: number, minutes: number): Date {
  const asIfUtc = Date.UTC(year, monthIndex, day, 0, minutes);
  return new Date(asIfUtc - offsetMinutes(timeZone, new Date(asIfUtc)) * 60_000);
}

/**
 * Whether the database was created empty and nothing has happened in it yet: no catalog, membership, account, order
 * or security event. Only such a database gets the demo history (never one with a business of its own).
 */
export async function isBlank(db: Database): Promise<boolean> {
  for (const table of [products, memberships, accounts, orders, securityEvents]) {
    if (await hasRows(db, table)) return false;
  }
  return true;
}

/**
 * Seeds the demo history, in one transaction, into a database that `isBlank` found blank before the demo data and
 * the demo accounts went in: the server's first start on an embedded database does so after making the demo
 * accounts (the history's accounts would keep them from being made). Its accounts get a password nothing verifies against: no one signs in as a member of the history.
 */
export async function seedDemoHistory(
  db: Database,
  { timeZone, now = new Date() }: { timeZone: string; now?: Date },
): Promise<void> {
  await db.transaction(async (tx) => insertHistory(tx, timeZone, now));
}

async function insertHistory(tx: Transaction, timeZone: string, now: Date): Promise<void> {
  const catalog = await tx
    .select({ productId: products.productId, name: products.name, price: products.retailPrice })
    .from(products)
    .where(lte(products.productId, 1012))
    .orderBy(asc(products.productId));
  if (catalog.length === 0) throw new Error('The demo history needs the demo catalog: seed the demo data first');

  const random = numbers(20_261_127);
  const members: { accountId: string; joined: Date }[] = [];
  const newOrders: { subject: string; orderedAt: Date; status: string; product: (typeof catalog)[number] }[] = [];
  const newSubscriptions: { subject: string; createdAt: Date; cancelledAt: Date | null; productId: number }[] = [];
  const accountRows: (typeof accounts.$inferInsert)[] = [];
  const status = () => {
    const roll = random.next();
    return roll < 0.86 ? 'Paid' : roll < 0.92 ? 'Refunded' : roll < 0.96 ? 'Failed' : 'Cancelled';
  };
  const order = (subject: string, orderedAt: Date) =>
    newOrders.push({ subject, orderedAt, status: status(), product: catalog[random.below(catalog.length)]! });

  // The full months, oldest first, then the current month's days before today (those depend on the date, so they
  // come last: the full months are the same numbers on every install).
  const today = todayIn(timeZone, now);
  const [year, month, dayOfMonth] = today.split('-').map(Number) as [number, number, number];
  /** A daytime moment of a day of the month `monthsAgo` before this one, on or before `lastDay`. */
  const when = (monthsAgo: number, lastDay: number) =>
    atLocal(timeZone, year, month - 1 - monthsAgo, 1 + random.below(lastDay), 8 * 60 + random.below(12 * 60));
  const daysIn = (monthsAgo: number) => new Date(Date.UTC(year, month - monthsAgo, 0)).getUTCDate();
  for (let monthsAgo: number = DEMO_HISTORY.fullMonths; monthsAgo >= 0; monthsAgo -= 1) {
    const current = monthsAgo === 0;
    const lastDay = current ? dayOfMonth - 1 : daysIn(monthsAgo);
    if (lastDay < 1) continue;
    for (const member of members) {
      if (random.chance(0.3)) order(member.accountId, when(monthsAgo, lastDay));
    }
    const joining = Math.round(
      (12 + 2 * (DEMO_HISTORY.fullMonths - monthsAgo) + random.below(5)) * (current ? lastDay / daysIn(0) : 1),
    );
    for (let n = 0; n < joining; n += 1) {
      const joined = when(monthsAgo, lastDay);
      const accountId = crypto.randomUUID();
      const first = FIRST_NAMES[random.below(FIRST_NAMES.length)]!;
      const last = LAST_NAMES[random.below(LAST_NAMES.length)]!;
      accountRows.push({
        accountId,
        email: `${first}.${last}.${accountRows.length + 1}@${DEMO_HISTORY.domain}`.toLowerCase(),
        passwordHash: NO_PASSWORD,
        firstName: first,
        lastName: last,
        createdAt: joined,
        updatedAt: joined,
      });
      members.push({ accountId, joined });
      order(accountId, joined);
      if (random.chance(0.4)) {
        const months = 1 + random.below(8);
        const cancelled = random.chance(0.25) && monthsAgo - months > 0;
        newSubscriptions.push({
          subject: accountId,
          createdAt: joined,
          cancelledAt: cancelled ? when(monthsAgo - months, daysIn(monthsAgo - months)) : null,
          productId: catalog[random.below(catalog.length)]!.productId,
        });
      }
    }
  }

  const events: (typeof securityEvents.$inferInsert)[] = [];
  for (let daysAgo: number = DEMO_HISTORY.signInDays; daysAgo >= 1; daysAgo -= 1) {
    const dayStart = atLocal(timeZone, year, month - 1, dayOfMonth - daysAgo, 0).getTime();
    const signedUp = members.filter((member) => member.joined.getTime() < dayStart);
    if (signedUp.length === 0) continue;
    const signIns = Math.round(signedUp.length / 12) + random.below(6);
    // Now and then a burst of failed sign-ins, as a password-guessing run would leave.
    const failures = random.chance(0.06) ? 8 + random.below(10) : random.below(3);
    for (let n = 0; n < signIns + failures; n += 1) {
      const member = signedUp[random.below(signedUp.length)]!;
      const [browser, os] = BROWSERS[random.below(BROWSERS.length)]!;
      const at = atLocal(timeZone, year, month - 1, dayOfMonth - daysAgo, 6 * 60 + random.below(16 * 60));
      const event = n >= signIns ? 'sign-in-failed' : random.chance(0.05) ? 'new-device' : 'sign-in';
      events.push({
        subject: member.accountId,
        at,
        event,
        browser,
        os,
        ipAddress: `203.0.113.${1 + random.below(250)}`,
      });
    }
  }

  for (const batch of batches(accountRows)) await tx.insert(accounts).values(batch);
  for (const batch of batches(newOrders)) {
    const made = await tx
      .insert(orders)
      .values(
        batch.map((o) => ({
          subject: o.subject,
          totalAmount: o.product.price,
          orderedAt: o.orderedAt,
          status: o.status,
        })),
      )
      .returning({ orderId: orders.orderId });
    await tx.insert(orderItems).values(
      made.map(({ orderId }, index) => ({
        orderId,
        position: 0,
        productName: batch[index]!.product.name,
        price: batch[index]!.product.price,
      })),
    );
  }
  if (newSubscriptions.length > 0) {
    const made = await tx
      .insert(subscriptions)
      .values(
        newSubscriptions.map((s) => ({
          subject: s.subject,
          pricePerInterval: '29.00',
          billingInterval: 1,
          billingPeriod: 'month',
          createdAt: s.createdAt,
          cancelledAt: s.cancelledAt,
        })),
      )
      .returning({ subscriptionId: subscriptions.subscriptionId });
    await tx.insert(subscriptionProducts).values(
      made.map(({ subscriptionId }, index) => ({
        subscriptionId,
        productId: newSubscriptions[index]!.productId,
        position: 0,
      })),
    );
  }
  for (const batch of batches(events, 1000)) await tx.insert(securityEvents).values(batch);
}
