import { adminMetricsSchema } from '@ums/contracts/metrics-schema';
import { count, ne } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, orders, securityEvents } from '../db/schema/index.js';
import { NO_PASSWORD } from '../identity/password-hash.js';
import { todayIn } from '@ums/contracts/metrics';
import { paths } from '../runtime.js';
import { ADMIN, testApp } from '../../test/helper.js';
import { seedDemoData } from './demo-data.js';
import { isBlank, seedDemoHistory } from './demo-history.js';

/** The demo history seeded for a company in `timeZone`, as the overview's 12 months per month answer it. */
async function twelveMonths(timeZone: string) {
  const ctx = await testApp({ env: { BUSINESS_TIME_ZONE: timeZone } });
  await seedDemoData(ctx.db, paths.catalogFile);
  await seedDemoHistory(ctx.db, { timeZone });
  const today = todayIn(timeZone);
  const from = `${new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 12, 1)).toISOString().slice(0, 7)}-01`;
  const response = await ctx.app.inject({
    url: `/api/admin/metrics?from=${from}&to=${today}&interval=month`,
    headers: await ctx.signedIn(ADMIN),
  });
  expect(response.statusCode).toBe(200);
  const [metrics] = adminMetricsSchema.array().parse(response.json().data);
  return { ctx, months: metrics!.buckets };
}

describe('the demo history', () => {
  it('gives a database created empty a year the overview draws: members and orders every month, sign-ins in the last 89 days, the oldest month as the README states it', async () => {
    const { ctx, months } = await twelveMonths('America/New_York');
    expect(months).toHaveLength(12);
    // README, "Demo history": in its first month 14 members joined, each with an order, $1,044.00 in all.
    expect(months[0]!.members.new).toBe(14);
    expect(months[0]!.orders).toMatchObject({ count: 14, revenue: 1044 });
    for (const month of months.slice(0, -1)) {
      expect(month.members.new).toBeGreaterThanOrEqual(12);
      expect(month.orders.count).toBeGreaterThan(0);
    }
    expect(months.at(-2)!.members.total).toBeGreaterThan(months[0]!.members.total);
    expect(months.at(-2)!.subscriptions.active).toBeGreaterThan(0);

    const signIns = await ctx.db
      .select({ at: securityEvents.at })
      .from(securityEvents)
      .orderBy(securityEvents.at)
      .limit(1);
    expect(Date.now() - signIns[0]!.at.getTime()).toBeLessThan(90 * 86_400_000);
    // Nobody signs in as a member of the history.
    const openable = await ctx.db.select({ n: count() }).from(accounts).where(ne(accounts.passwordHash, NO_PASSWORD));
    expect(openable[0]!.n).toBe(0);
  });

  it('counts each month in the company’s time zone: the first month is the same 14 members and $1,044.00 at UTC+14 and UTC-10', async () => {
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Honolulu']) {
      const { months } = await twelveMonths(zone);
      expect(months[0]!.members.new, zone).toBe(14);
      expect(months[0]!.orders, zone).toMatchObject({ count: 14, revenue: 1044 });
    }
  });

  it('is for a database created empty only: not one with an account, an order or a sign-in of its own', async () => {
    const ctx = await testApp();
    expect(await isBlank(ctx.db)).toBe(true);
    await ctx.db.insert(accounts).values({ email: 'first@customer.test', passwordHash: NO_PASSWORD });
    expect(await isBlank(ctx.db)).toBe(false);
    const other = await testApp();
    await other.db
      .insert(securityEvents)
      .values({ subject: 'someone', event: 'sign-in', browser: 'Chrome 142', os: 'Windows 11' });
    expect(await isBlank(other.db)).toBe(false);
    const sold = await testApp();
    await sold.db.insert(orders).values({
      subject: 'someone',
      totalAmount: '49.00',
      orderedAt: new Date('2026-01-05T15:00:00Z'),
      status: 'Paid',
    });
    expect(await isBlank(sold.db)).toBe(false);
    const third = await testApp();
    await seedDemoData(third.db, paths.catalogFile);
    expect(await isBlank(third.db)).toBe(false);
  });
});
