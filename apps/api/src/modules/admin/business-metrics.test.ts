import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADMIN, testApp, testDatabase } from '../../../test/helper.js';
import { todayIn } from '@ums/contracts/metrics';
import { createBusinessMetrics } from './business-metrics.js';

const database = await testDatabase();
const pool = database.pool;
const metrics = createBusinessMetrics({ db: database.db, timeZone: 'America/New_York', freshMs: 0 });

async function account(createdAt: string) {
  const id = randomUUID();
  await pool.query(`insert into accounts (account_id, email, password_hash, created_at) values ($1, $2, 'x', $3)`, [
    id,
    `${id}@metrics.example`,
    createdAt,
  ]);
  return id;
}
const order = (at: string, total: number, status = 'Paid') =>
  pool.query(`insert into orders (subject, total_amount, ordered_at, status) values ('buyer', $1, $2, $3)`, [
    total,
    at,
    status,
  ]);
const securityEvent = (at: string, event: string) =>
  pool.query(`insert into security_events (subject, at, event, browser, os) values ('someone', $1, $2, 'B', 'O')`, [
    at,
    event,
  ]);
const subscription = (createdAt: string, cancelledAt: string | null = null) =>
  pool.query(
    `insert into subscriptions (subject, price_per_interval, billing_interval, billing_period, created_at, cancelled_at)
     values ('buyer', 10, 1, 'month', $1, $2)`,
    [createdAt, cancelledAt],
  );
const auditEntry = (at: string, action: string, entity: string) =>
  pool.query(`insert into audit_entries (at, actor_id, action, entity, entity_id) values ($1, 'a', $2, $3, '1')`, [
    at,
    action,
    entity,
  ]);

describe("the admin overview's series", () => {
  it("counts a day from the company's midnight (New York), not UTC's, across the start of daylight saving time", async () => {
    // 23:30 on 1 March in New York (UTC-5) is 04:30 on 2 March in UTC; 00:30 on 2 March is 05:30.
    await order('2026-03-02T04:30:00Z', 10);
    await order('2026-03-02T05:30:00Z', 20);
    // Daylight saving time starts on 8 March (UTC-4 after): 23:30 on 8 March is 03:30 on 9 March UTC, 00:30 on 9 March
    // is 04:30.
    await order('2026-03-09T03:30:00Z', 40);
    await order('2026-03-09T04:30:00Z', 80);
    const { buckets, timeZone } = await metrics.series({ from: '2026-03-01', to: '2026-03-09', interval: 'day' });
    expect(timeZone).toBe('America/New_York');
    const revenue = Object.fromEntries(buckets.map((bucket) => [bucket.start, bucket.orders.revenue]));
    expect(revenue).toEqual({
      '2026-03-01': 10,
      '2026-03-02': 20,
      '2026-03-03': 0,
      '2026-03-04': 0,
      '2026-03-05': 0,
      '2026-03-06': 0,
      '2026-03-07': 0,
      '2026-03-08': 40,
      '2026-03-09': 80,
    });
    expect(buckets.map((bucket) => bucket.end)).toEqual(buckets.map((bucket) => bucket.start));
  });

  it('answers every bucket of the range, empty ones with 0 in every series', async () => {
    const { buckets } = await metrics.series({ from: '2025-01-10', to: '2025-01-12', interval: 'day' });
    expect(buckets).toHaveLength(3);
    for (const bucket of buckets) {
      expect(bucket).toMatchObject({
        members: { new: 0 },
        accounts: { closing: 0, deleted: 0 },
        subscriptions: { started: 0, cancelled: 0 },
        orders: { count: 0, revenue: 0, byStatus: {} },
        signIns: { succeeded: 0, failed: 0, newDevices: 0 },
        catalogChanges: 0,
      });
    }
  });

  it('starts weeks on Monday and months on the 1st, cutting the buckets at either end of the range to the range', async () => {
    const weeks = await metrics.series({ from: '2026-03-04', to: '2026-03-20', interval: 'week' });
    expect(weeks.buckets.map(({ start, end }) => [start, end])).toEqual([
      ['2026-03-04', '2026-03-08'],
      ['2026-03-09', '2026-03-15'],
      ['2026-03-16', '2026-03-20'],
    ]);
    // The order of 23:30 on 1 March (New York) is before the range; 8 and 9 March fall in the first two weeks.
    expect(weeks.buckets.map((bucket) => bucket.orders.revenue)).toEqual([40, 80, 0]);
    const months = await metrics.series({ from: '2026-02-15', to: '2026-04-10', interval: 'month' });
    expect(months.buckets.map(({ start, end }) => [start, end])).toEqual([
      ['2026-02-15', '2026-02-28'],
      ['2026-03-01', '2026-03-31'],
      ['2026-04-01', '2026-04-10'],
    ]);
    expect(months.buckets.map((bucket) => bucket.orders.revenue)).toEqual([0, 150, 0]);
  });

  it('sums order totals by order date and splits them by status', async () => {
    await order('2026-05-06T15:00:00Z', 118.5, 'Paid');
    await order('2026-05-06T16:00:00Z', 40.25, 'Refunded');
    await order('2026-05-06T17:00:00Z', 0.25, 'Paid');
    const [day] = (await metrics.series({ from: '2026-05-06', to: '2026-05-06', interval: 'day' })).buckets;
    expect(day!.orders).toEqual({
      count: 3,
      revenue: 159,
      byStatus: { Paid: { count: 2, revenue: 118.75 }, Refunded: { count: 1, revenue: 40.25 } },
    });
  });

  it('counts members made before the range into the total, and active subscriptions from their starts and cancellations', async () => {
    await account('2026-06-01T12:00:00Z');
    await account('2026-06-10T12:00:00Z');
    await account('2026-06-11T12:00:00Z');
    await subscription('2026-06-01T12:00:00Z');
    await subscription('2026-06-01T13:00:00Z', '2026-06-11T12:00:00Z');
    await subscription('2026-06-10T12:00:00Z');
    const { buckets } = await metrics.series({ from: '2026-06-10', to: '2026-06-12', interval: 'day' });
    const before = (
      await pool.query(`select count(*)::int as n from accounts where created_at < '2026-06-10T04:00:00Z'`)
    ).rows[0].n as number;
    expect(buckets.map((bucket) => bucket.members)).toEqual([
      { total: before + 1, new: 1 },
      { total: before + 2, new: 1 },
      { total: before + 2, new: 0 },
    ]);
    expect(buckets.map((bucket) => bucket.subscriptions)).toEqual([
      { active: 3, started: 1, cancelled: 0 },
      { active: 2, started: 0, cancelled: 1 },
      { active: 2, started: 0, cancelled: 0 },
    ]);
  });

  it('counts sign-ins that succeeded and failed, new devices, catalog changes and closed accounts', async () => {
    await securityEvent('2026-07-01T15:00:00Z', 'sign-in');
    await securityEvent('2026-07-01T15:01:00Z', 'sign-in');
    await securityEvent('2026-07-01T15:02:00Z', 'sign-in-failed');
    await securityEvent('2026-07-01T15:03:00Z', 'new-device');
    await securityEvent('2026-07-01T15:04:00Z', 'password-changed');
    await auditEntry('2026-07-01T15:00:00Z', 'membership-updated', 'membership');
    await auditEntry('2026-07-01T15:00:00Z', 'package-price-changed', 'discount-package');
    await auditEntry('2026-07-01T15:00:00Z', 'catalog-refreshed', 'catalog');
    await auditEntry('2026-07-01T15:00:00Z', 'member-details-read', 'member');
    await auditEntry('2026-07-01T15:00:00Z', 'account-deleted', 'member');
    const closing = await account('2026-01-01T00:00:00Z');
    await pool.query(
      `insert into account_deletions (subject, requested_at, delete_after) values ($1, '2026-07-01T15:00:00Z', '2026-07-31T15:00:00Z')`,
      [closing],
    );
    const [day] = (await metrics.series({ from: '2026-07-01', to: '2026-07-01', interval: 'day' })).buckets;
    expect(day).toMatchObject({
      signIns: { succeeded: 2, failed: 1, newDevices: 1 },
      catalogChanges: 3,
      accounts: { closing: 1, deleted: 1 },
    });
  });

  it('answers the last 30 days, today included, when the call names no range', async () => {
    const { from, to, buckets } = await metrics.series({ interval: 'day' });
    expect(to).toBe(todayIn('America/New_York'));
    expect(buckets).toHaveLength(30);
    expect([buckets[0]!.start, buckets.at(-1)!.start]).toEqual([from, to]);
  });
});

const ctx = await testApp();

describe('GET /api/admin/metrics', () => {
  const get = async (query: string) =>
    ctx.app.inject({ url: `/api/admin/metrics${query}`, headers: await ctx.signedIn(ADMIN) });

  it('answers a range of up to 2 years, each bucket by its contract', async () => {
    const response = await get('?from=2024-11-28&to=2026-11-27&interval=month');
    expect(response.statusCode).toBe(200);
    const [answer] = response.json().data;
    expect([answer.from, answer.to, answer.interval, answer.buckets.length]).toEqual([
      '2024-11-28',
      '2026-11-27',
      'month',
      25,
    ]);
  });

  it('refuses a range longer than 2 years, one that ends before it starts, a date that does not exist and an unknown interval (400)', async () => {
    for (const [query, field, message] of [
      [
        '?from=2024-11-26&to=2026-11-27',
        'to',
        'The range is at most 2 years (731 days); this one is 732 days: choose a shorter range or a later from',
      ],
      ['?from=2026-03-02&to=2026-03-01', 'from', 'The range starts after it ends: from must be on or before to'],
      ['?from=2026-02-30', 'from', 'Give a date as YYYY-MM-DD, such as 2026-11-27'],
      ['?to=27/11/2026', 'to', 'Give a date as YYYY-MM-DD, such as 2026-11-27'],
    ] as const) {
      const response = await get(query);
      expect(response.statusCode, query).toBe(400);
      expect(JSON.stringify(response.json()), query).toContain(message);
      expect(JSON.stringify(response.json()), query).toContain(field);
    }
    expect((await get('?interval=year')).statusCode).toBe(400);
  });
});

describe("the overview's rollups (decision 031)", () => {
  /** A business of its own: orders over a year, sign-ins over a month, catalog changes and deletions. */
  async function business() {
    const own = await testDatabase();
    await own.pool.query(
      `insert into orders (subject, total_amount, ordered_at, status)
       select 'buyer-' || n % 50, 10 + n % 90, timestamptz '2025-12-01 00:00:00+00' + make_interval(mins => n * 211),
              (array['Paid','Refunded','Failed'])[1 + n % 3]
       from generate_series(1, 2400) n`,
    );
    await own.pool.query(
      `insert into security_events (subject, at, event, browser, os)
       select 'someone', timestamptz '2026-10-01 00:00:00+00' + make_interval(mins => n * 37),
              (array['sign-in','sign-in-failed','new-device'])[1 + n % 3], 'B', 'O'
       from generate_series(1, 1500) n`,
    );
    await own.pool.query(
      `insert into audit_entries (at, actor_id, action, entity, entity_id)
       select timestamptz '2026-01-01 00:00:00+00' + make_interval(hours => n * 29), 'a',
              (array['membership-updated','account-deleted'])[1 + n % 2],
              (array['membership','member'])[1 + n % 2], '1'
       from generate_series(1, 300) n`,
    );
    return own;
  }

  /** The months as the tables say, counted here in plain SQL: orders, revenue, failed sign-ins, catalog changes. */
  async function fromTheTables(pool: typeof database.pool) {
    const month = (at: string) => `to_char(date_trunc('month', ${at} at time zone 'America/New_York'), 'YYYY-MM-DD')`;
    // The series' range ends with November 27 in New York.
    const at = (column: string) => `${column} < '2026-11-28T05:00:00Z'`;
    const sold = await pool.query<{ month: string; n: number; revenue: string }>(
      `select ${month('ordered_at')} as month, count(*)::int as n, sum(total_amount)::text as revenue
       from orders where ordered_at >= '2025-12-01T05:00:00Z' and ${at('ordered_at')} group by 1 order by 1`,
    );
    const failed = await pool.query<{ month: string; n: number }>(
      `select ${month('at')} as month, count(*)::int as n from security_events
       where event = 'sign-in-failed' and at >= '2025-12-01T05:00:00Z' and ${at('at')} group by 1 order by 1`,
    );
    const changed = await pool.query<{ month: string; n: number }>(
      `select ${month('at')} as month, count(*)::int as n from audit_entries
       where entity = 'membership' and at >= '2025-12-01T05:00:00Z' and ${at('at')} group by 1 order by 1`,
    );
    const by = <T extends { month: string }>(rows: T[], value: (row: T) => number) =>
      Object.fromEntries(rows.map((row) => [row.month, value(row)]));
    return {
      orders: by(sold.rows, (row) => row.n),
      revenue: by(sold.rows, (row) => Number(row.revenue)),
      failed: by(failed.rows, (row) => row.n),
      catalogChanges: by(changed.rows, (row) => row.n),
    };
  }
  const fromTheSeries = async (series: ReturnType<typeof createBusinessMetrics>) => {
    const { buckets } = await series.series({ from: '2025-12-01', to: '2026-11-27', interval: 'month' });
    const by = (value: (bucket: (typeof buckets)[number]) => number) =>
      Object.fromEntries(
        buckets.filter((bucket) => value(bucket) !== 0).map((bucket) => [bucket.start, value(bucket)]),
      );
    return {
      orders: by((bucket) => bucket.orders.count),
      revenue: by((bucket) => bucket.orders.revenue),
      failed: by((bucket) => bucket.signIns.failed),
      catalogChanges: by((bucket) => bucket.catalogChanges),
    };
  };

  it('answer what the tables say after dated orders and audit entries, a changed status and deleted sign-ins reach rows the rollup has passed, and read the rollup, not the tables, for those', async () => {
    const own = await business();
    const series = createBusinessMetrics({ db: own.db, timeZone: 'America/New_York', freshMs: 0 });
    expect(await fromTheSeries(series)).toEqual(await fromTheTables(own.pool));
    const { rows: rolled } = await own.pool.query(`select source, through from metric_rollups order by source`);
    expect(rolled.map((row: { through: Date }) => row.through.getTime() > Date.parse('2026-11-01'))).toEqual([
      true,
      true,
      true,
    ]);

    await own.pool.query(
      `insert into orders (subject, total_amount, ordered_at, status) values ('late', 500, '2026-02-14T15:00:00Z', 'Paid')`,
    );
    await own.pool.query(`update orders set status = 'Refunded', total_amount = 1 where ordered_at < '2026-01-10'`);
    await own.pool.query(`delete from security_events where at < '2026-10-15' and event = 'sign-in-failed'`);
    // The trail only grows: an entry dated in the past (a restore's, an import's) is the change it can see.
    await own.pool.query(
      `insert into audit_entries (at, actor_id, action, entity, entity_id) values ('2026-02-10T12:00:00Z', 'a', 'membership-updated', 'membership', '2')`,
    );
    expect(await fromTheSeries(series)).toEqual(await fromTheTables(own.pool));
    // An entry's only updates (a closed account's scrub here, a price save's fold) keep it in its slot.
    await own.pool.query(
      `insert into audit_entries (at, actor_id, action, entity, entity_id, label) values ('2026-02-11T12:00:00Z', 'a', 'member-groups-changed', 'member', 'gone-account', 'gone@example.com')`,
    );
    await own.pool.query(`select audit_scrub_closed_member('gone-account')`);
    const scrubbed = await own.pool.query(`select label from audit_entries where entity_id = 'gone-account'`);
    expect(scrubbed.rows).toEqual([{ label: null }]);
    expect(await fromTheSeries(series)).toEqual(await fromTheTables(own.pool));

    // The answer comes from the slots: a slot changed behind the triggers' back shows in it.
    await own.pool.query(
      `update metric_slots set n = n + 1000 where source = 'orders' and slot = (select min(slot) from metric_slots where source = 'orders' and slot >= '2026-06-02')`,
    );
    const june = (await fromTheSeries(series)).orders['2026-06-01']!;
    expect(june - (await fromTheTables(own.pool)).orders['2026-06-01']!).toBe(1000);
  });

  it('start again from nothing when a table is emptied at once (TRUNCATE), and count what is written after', async () => {
    const own = await business();
    const series = createBusinessMetrics({ db: own.db, timeZone: 'America/New_York', freshMs: 0 });
    expect(Object.keys((await fromTheSeries(series)).orders)).toHaveLength(12);
    await own.pool.query('truncate orders cascade');
    await own.pool.query(
      `insert into orders (subject, total_amount, ordered_at, status) values ('late', 70, '2026-03-14T15:00:00Z', 'Paid')`,
    );
    const after = await fromTheSeries(series);
    expect([after.orders, after.revenue]).toEqual([{ '2026-03-01': 1 }, { '2026-03-01': 70 }]);
    expect(after).toEqual(await fromTheTables(own.pool));
  });

  it('count every row once when two API processes roll the same tables forward at the same moment', async () => {
    const own = await business();
    const one = createBusinessMetrics({ db: own.db, timeZone: 'America/New_York', freshMs: 0 });
    const other = createBusinessMetrics({ db: own.db, timeZone: 'America/New_York', freshMs: 0 });
    const [first, second] = await Promise.all([fromTheSeries(one), fromTheSeries(other)]);
    const tables = await fromTheTables(own.pool);
    expect(first).toEqual(tables);
    expect(second).toEqual(tables);
    expect(await fromTheSeries(one)).toEqual(tables);
  });
});
