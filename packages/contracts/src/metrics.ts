import { z } from 'zod';

/**
 * The admin overview's series (`GET /api/admin/metrics`): the business over a range of days in the company's time zone,
 * one bucket per day, week (Monday to Sunday) or month, built from the tables as they are (no sampling).
 */

export const METRICS_INTERVALS = ['day', 'week', 'month'] as const;
export type MetricsInterval = (typeof METRICS_INTERVALS)[number];

/** The longest range one call answers: two years, a leap day included. */
export const METRICS_MAX_DAYS = 731;
/** The range when the call names none: the last 30 days, today included. */
export const METRICS_DEFAULT_DAYS = 30;

export const METRICS_TEXTS = {
  badDate: 'Give a date as YYYY-MM-DD, such as 2026-11-27',
  fromAfterTo: 'The range starts after it ends: from must be on or before to',
  tooLong: (days: number) =>
    `The range is at most 2 years (${METRICS_MAX_DAYS} days); this one is ${days} days: choose a shorter range or a later from`,
} as const;

/** A calendar day, YYYY-MM-DD, that exists (no 2026-02-30). */
export const calendarDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, METRICS_TEXTS.badDate)
  .refine((day) => {
    const parsed = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
  }, METRICS_TEXTS.badDate);

/** Days from `from` to `to`, both counted. */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

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
    const days = daysBetween(query.from, query.to);
    if (days < 1) ctx.addIssue({ code: 'custom', path: ['from'], message: METRICS_TEXTS.fromAfterTo });
    else if (days > METRICS_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: METRICS_TEXTS.tooLong(days) });
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
