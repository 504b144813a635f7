/**
 * The admin overview's series (`GET /api/admin/metrics`): the business over a range of days in the company's time zone,
 * one bucket per day, week (Monday to Sunday) or month, counted from every row (no sampling).
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

/** Whether `day` is a calendar day written YYYY-MM-DD that exists (no 2026-02-30). */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
}

/** Days from `from` to `to`, both counted. */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** Today in `timeZone` (an IANA name), as YYYY-MM-DD. */
export function todayIn(timeZone: string, now = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The day `days` after `day` (YYYY-MM-DD; a negative count goes back). */
export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * What is wrong with a range, in the words the API answers (null when it is one the call accepts): both days exist,
 * `from` is on or before `to`, and the range is at most METRICS_MAX_DAYS.
 */
export function rangeProblem(from: string, to: string): string | null {
  if (!isCalendarDay(from) || !isCalendarDay(to)) return METRICS_TEXTS.badDate;
  const days = daysBetween(from, to);
  if (days < 1) return METRICS_TEXTS.fromAfterTo;
  if (days > METRICS_MAX_DAYS) return METRICS_TEXTS.tooLong(days);
  return null;
}

export type { AdminMetrics, MetricsBucket, MetricsQuery } from './metrics-schema.js';
