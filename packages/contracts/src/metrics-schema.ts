import { z } from 'zod';
import { isCalendarDay, METRICS_INTERVALS, METRICS_TEXTS, rangeProblem } from './metrics.js';

/** The schemas of `GET /api/admin/metrics` (the API's); the rules and texts they share with the browser are metrics.ts. */

/** A calendar day, YYYY-MM-DD, that exists (no 2026-02-30). */
export const calendarDaySchema = z.string().refine(isCalendarDay, METRICS_TEXTS.badDate);

export const metricsQuerySchema = z
  .object({
    from: calendarDaySchema
      .optional()
      .describe('First day of the range (company time zone); default 29 days before to'),
    to: calendarDaySchema.optional().describe('Last day of the range, counted; default today in the company time zone'),
    interval: z.enum(METRICS_INTERVALS).default('day').describe('One bucket per day, week (from Monday) or month'),
  })
  .superRefine((query, ctx) => {
    if (!query.from || !query.to) return;
    // A day that does not exist is its own field's issue already; the range's are the browser's words too.
    const problem = rangeProblem(query.from, query.to);
    if (problem === null || problem === METRICS_TEXTS.badDate) return;
    ctx.addIssue({ code: 'custom', path: [problem === METRICS_TEXTS.fromAfterTo ? 'from' : 'to'], message: problem });
  });
export type MetricsQuery = z.input<typeof metricsQuerySchema>;

const count = z.number().int().nonnegative();
const usd = z.number().nonnegative().describe('US dollars, to the cent');

export const metricsBucketSchema = z.object({
  start: calendarDaySchema.describe("The bucket's first day in the range"),
  end: calendarDaySchema.describe(
    "The bucket's last day in the range (a bucket at an end of the range may be partial)",
  ),
  members: z.object({
    total: count.describe(
      'Accounts at the end of the bucket, by when they were made (accounts since deleted are not counted)',
    ),
    new: count.describe('Accounts made in the bucket'),
  }),
  accounts: z.object({
    closing: count.describe('Accounts whose owner closed them in the bucket, still within their grace period'),
    deleted: count.describe('Closed accounts deleted in the bucket at the end of their grace period'),
  }),
  subscriptions: z.object({
    active: count.describe('Subscriptions running at the end of the bucket'),
    started: count,
    cancelled: count,
  }),
  orders: z.object({
    count,
    revenue: usd.describe('Sum of the order totals, by order date'),
    byStatus: z.record(z.string(), z.object({ count, revenue: usd })).describe('The same split by order status'),
  }),
  signIns: z
    .object({
      succeeded: count,
      failed: count,
      newDevices: count.describe('Sign-ins from a device the account had not used for 90 days'),
    })
    .describe('From the security activity, which is kept 90 days: earlier buckets answer 0'),
  catalogChanges: count.describe('Audit entries of memberships, discount packages and the product catalog'),
});
export type MetricsBucket = z.infer<typeof metricsBucketSchema>;

export const adminMetricsSchema = z.object({
  from: calendarDaySchema,
  to: calendarDaySchema,
  interval: z.enum(METRICS_INTERVALS),
  timeZone: z.string().describe('The company time zone the days are in (BUSINESS_TIME_ZONE)'),
  buckets: z.array(metricsBucketSchema),
});
export type AdminMetrics = z.infer<typeof adminMetricsSchema>;
