import {
  addDays,
  METRICS_DEFAULT_DAYS,
  todayIn,
  type AdminMetrics,
  type MetricsBucket,
  type MetricsInterval,
} from '@ums/contracts/metrics';
import { CATALOG_AUDIT_ENTITIES } from '@ums/contracts/audit';
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import {
  accountDeletions,
  accounts,
  auditEntries,
  metricRollups,
  metricSlots,
  orders,
  securityEvents,
  subscriptions,
} from '../../db/schema/index.js';
import { createBoundedCache, type MemoryBudget } from '../../lib/bounded-cache.js';

/** An answer is served again for this long: a new order or sign-in shows within a minute. */
export const METRICS_FRESH_MS = 60_000;

type BucketRow = {
  start: string;
  end: string;
  new_members: number;
  closing: number;
  deleted: number;
  started: number;
  cancelled: number;
  order_count: number;
  revenue: string;
  by_status: Record<string, { count: number; revenue: number }> | null;
  signed_in: number;
  failed: number;
  new_devices: number;
  catalog_changes: number;
  members_before: number;
  subscriptions_before: number;
};

/**
 * The tables the series count from rollups (decision 031): each row's time, kind and amount, as the table's trigger
 * (migration 0021) counts them into metric_slots. The test of the rollups holds the two to the same numbers.
 */
const ROLLED_UP = {
  orders: { table: orders, at: orders.orderedAt, kind: sql`${orders.status}`, amount: sql`${orders.totalAmount}` },
  security: { table: securityEvents, at: securityEvents.at, kind: sql`${securityEvents.event}`, amount: sql`0` },
  audit: {
    table: auditEntries,
    at: auditEntries.at,
    kind: sql`${auditEntries.entity} || '/' || ${auditEntries.action}`,
    amount: sql`0`,
  },
} as const;
type RolledUp = keyof typeof ROLLED_UP;

/**
 * Moves a source's rollup on to the last quarter hour that is over for every writer: five minutes ago, or the start
 * of the oldest transaction still open on this database, whichever is earlier (so no row can still be committed
 * before it). One statement, one process at a time: another one rolling the same source is left to it (the answer
 * then reads the tables from where the rollup stood).
 */
async function rollForward(db: Database, source: RolledUp): Promise<void> {
  const { table, at, kind, amount } = ROLLED_UP[source];
  await db.execute(sql`
    with state as (
           select ${metricRollups.through} as through,
                  metric_slot(least(now() - interval '5 minutes',
                    coalesce((select min(xact_start) from pg_stat_activity
                              where datname = current_database() and backend_type = 'client backend'
                                and pid <> pg_backend_pid() and xact_start is not null), now()))) as target
           from ${metricRollups} where ${metricRollups.source} = ${source} for update skip locked),
         counted as (
           insert into ${metricSlots} (source, slot, kind, n, amount)
           select ${source}, metric_slot(${at}), ${kind}, count(*), coalesce(sum(${amount}), 0)
           from ${table}, state
           where state.target > state.through and ${at} >= state.through and ${at} < state.target
           group by 2, 3 order by 2, 3
           on conflict (source, slot, kind)
             do update set n = ${metricSlots.n} + excluded.n, amount = ${metricSlots.amount} + excluded.amount)
    update ${metricRollups} set through = state.target from state
    where ${metricRollups.source} = ${source} and state.target > state.through`);
}

/**
 * The admin overview's series: one statement over the rollups and the tables, its buckets the periods (in the
 * company's time zone) that meet the range, each cut to the range. Answers are kept a minute per range and interval.
 */
export function createBusinessMetrics({
  db,
  timeZone,
  freshMs = METRICS_FRESH_MS,
  budget,
}: {
  db: Database;
  timeZone: string;
  /** The budget the process's caches share (CACHE_MEMORY_MB). */
  budget?: MemoryBudget | undefined;
  /** How long an answer is served again (a minute; 0 computes every call). */
  freshMs?: number;
}) {
  const cache = createBoundedCache<{ at: number; metrics: AdminMetrics }>({
    name: 'business-metrics',
    budget,
    maxBytes: 4 * 1024 * 1024,
    maxEntries: 500,
    bytesOf: (value) => JSON.stringify(value.metrics).length,
  });

  async function compute(from: string, to: string, interval: MetricsInterval): Promise<AdminMetrics> {
    // The unit is one of three names the contract allows, never a caller's text.
    const unit = sql.raw(`'${interval}'`);
    const step = sql.raw(`interval '1 ${interval}'`);
    const fromDay = sql`${from}::timestamp`;
    const afterTo = sql`(${to}::date + 1)::timestamp`;
    const lo = sql`(${fromDay} at time zone ${timeZone})`;
    const hi = sql`(${afterTo} at time zone ${timeZone})`;
    /** The period a moment falls in, as the company's calendar has it. */
    const period = (at: PgColumn | SQL) => sql`date_trunc(${unit}, ${at} at time zone ${timeZone})`;
    const within = (at: PgColumn) => sql`${at} >= ${lo} and ${at} < ${hi}`;
    /**
     * A `with` item: how many rows of `table` fall in each period by the moment `at`, one column per condition of
     * `columns`, in one scan of the table.
     */
    const counted = (name: string, table: PgTable, at: PgColumn, columns: Record<string, SQL> = { n: sql`true` }) =>
      sql`${sql.identifier(name)} as (select ${period(at)} as p, ${sql.join(
        Object.entries(columns).map(
          ([column, where]) => sql`count(*) filter (where ${where})::int as ${sql.identifier(column)}`,
        ),
        sql`, `,
      )} from ${table} where ${within(at)} group by 1)`;
    /**
     * A `with` item: a rolled-up source's rows per period and kind (with the amount): its slots as far as the rollup
     * has reached, then the table's own rows after that.
     */
    const rolled = (name: string, source: RolledUp) => {
      const { table, at, kind, amount } = ROLLED_UP[source];
      const through = sql`(select ${metricRollups.through} from ${metricRollups} where ${metricRollups.source} = ${source})`;
      return sql`${sql.identifier(name)} as (
        select p, kind, sum(n)::int as n, sum(amount) as amount from (
          select ${period(sql`${metricSlots.slot}`)} as p, ${metricSlots.kind} as kind, ${metricSlots.n} as n,
                 ${metricSlots.amount} as amount
          from ${metricSlots}
          where ${metricSlots.source} = ${source} and ${metricSlots.slot} >= ${lo}
            and ${metricSlots.slot} < least(${hi}, ${through})
          union all
          select ${period(at)}, ${kind}, 1, ${amount} from ${table}
          where ${at} >= greatest(${lo}, ${through}) and ${at} < ${hi}) counted
        group by 1, 2)`;
    };
    const catalogEntity = sql`split_part(kind, '/', 1) in (${sql.join(
      CATALOG_AUDIT_ENTITIES.map((entity) => sql`${entity}`),
      sql`, `,
    )})`;

    const { rows } = await db.execute<BucketRow>(sql`
      with periods as (
             select p from generate_series(date_trunc(${unit}, ${fromDay}), ${to}::timestamp, ${step}) p),
           ${counted('new_members', accounts, accounts.createdAt)},
           ${counted('closing', accountDeletions, accountDeletions.requestedAt)},
           ${counted('started', subscriptions, subscriptions.createdAt)},
           ${counted('cancelled', subscriptions, subscriptions.cancelledAt)},
           ${rolled('audit_rows', 'audit')},
           ${rolled('security_rows', 'security')},
           ${rolled('order_rows', 'orders')},
           audited as (
             select p, coalesce(sum(n) filter (where split_part(kind, '/', 2) = 'account-deleted'), 0)::int as deleted,
                    coalesce(sum(n) filter (where ${catalogEntity}), 0)::int as catalog_changes
             from audit_rows group by p),
           signed as (
             select p, coalesce(sum(n) filter (where kind = 'sign-in'), 0)::int as signed_in,
                    coalesce(sum(n) filter (where kind = 'sign-in-failed'), 0)::int as failed,
                    coalesce(sum(n) filter (where kind = 'new-device'), 0)::int as new_devices
             from security_rows group by p),
           sold as (
             select p, sum(n)::int as n, sum(amount)::text as revenue,
                    json_object_agg(kind, json_build_object('count', n, 'revenue', amount)) as by_status
             from order_rows where n <> 0 group by p)
      select to_char(greatest(periods.p, ${fromDay}), 'YYYY-MM-DD') as start,
             to_char(least(periods.p + ${step}, ${afterTo}) - interval '1 day', 'YYYY-MM-DD') as end,
             coalesce(new_members.n, 0) as new_members, coalesce(closing.n, 0) as closing,
             coalesce(audited.deleted, 0) as deleted, coalesce(started.n, 0) as started,
             coalesce(cancelled.n, 0) as cancelled, coalesce(sold.n, 0) as order_count,
             coalesce(sold.revenue, '0') as revenue, sold.by_status,
             coalesce(signed.signed_in, 0) as signed_in, coalesce(signed.failed, 0) as failed,
             coalesce(signed.new_devices, 0) as new_devices, coalesce(audited.catalog_changes, 0) as catalog_changes,
             (select count(*)::int from ${accounts} where ${accounts.createdAt} < ${lo}) as members_before,
             (select (count(*) - count(${subscriptions.cancelledAt}) filter (where ${subscriptions.cancelledAt} < ${lo}))::int
              from ${subscriptions} where ${subscriptions.createdAt} < ${lo}) as subscriptions_before
      from periods
      left join new_members using (p) left join closing using (p) left join audited using (p)
      left join started using (p) left join cancelled using (p) left join sold using (p)
      left join signed using (p)
      order by periods.p`);

    let members = rows[0]?.members_before ?? 0;
    let active = rows[0]?.subscriptions_before ?? 0;
    const buckets: MetricsBucket[] = rows.map((row) => {
      members += row.new_members;
      active += row.started - row.cancelled;
      return {
        start: row.start,
        end: row.end,
        members: { total: members, new: row.new_members },
        accounts: { closing: row.closing, deleted: row.deleted },
        subscriptions: { active, started: row.started, cancelled: row.cancelled },
        orders: {
          count: row.order_count,
          revenue: Number(row.revenue),
          byStatus: Object.fromEntries(
            Object.entries(row.by_status ?? {}).map(([status, sold]) => [
              status,
              { count: sold.count, revenue: Number(sold.revenue) },
            ]),
          ),
        },
        signIns: { succeeded: row.signed_in, failed: row.failed, newDevices: row.new_devices },
        catalogChanges: row.catalog_changes,
      };
    });
    return { from, to, interval, timeZone, buckets };
  }

  return {
    /** The series over `from`..`to` (days in the company's time zone; default the last 30 days, today included). */
    async series(query: { from?: string | undefined; to?: string | undefined; interval: MetricsInterval }) {
      const to = query.to ?? (query.from ? addDays(query.from, METRICS_DEFAULT_DAYS - 1) : todayIn(timeZone));
      const from = query.from ?? addDays(to, 1 - METRICS_DEFAULT_DAYS);
      const key = JSON.stringify([from, to, query.interval]);
      const kept = await cache.build(
        key,
        async () => {
          for (const source of Object.keys(ROLLED_UP) as RolledUp[]) await rollForward(db, source);
          return { at: Date.now(), metrics: await compute(from, to, query.interval) };
        },
        { current: (value) => Date.now() - value.at < freshMs },
      );
      return kept.metrics;
    },
  };
}

export type BusinessMetrics = ReturnType<typeof createBusinessMetrics>;
