import { integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The overview's rollups (decision 031): the rows of orders, security events and audit entries counted per source,
 * 15-minute slot (every time zone's midnight is on one: offsets are whole quarter hours) and kind (an order's status,
 * a security event, an audit entry's entity and action), with the orders' amount. The series read these for every
 * slot the rollup has reached and the tables only after it. Derived data: not in backups (rebuilt from the rows).
 */
export const metricSlots = pgTable(
  'metric_slots',
  {
    source: text('source').notNull(),
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    kind: text('kind').notNull(),
    n: integer('n').notNull(),
    amount: numeric('amount', { precision: 16, scale: 2 }).notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.source, t.slot, t.kind] })],
);

/**
 * How far each source's rollup has reached: its slots before `through` are complete in metric_slots. Moved on by the
 * series (one process at a time, under this row's lock); a change to a row before it is counted into its slot by the
 * table's trigger in the writing transaction.
 */
export const metricRollups = pgTable('metric_rollups', {
  source: text('source').primaryKey(),
  through: timestamp('through', { withTimezone: true }).notNull(),
});
