import { INVALID_DATE } from './messages.js';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const longDate = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

/** "$1,234.50": prices are always USD with 2 decimals. */
export const formatUsd = (amount: number | string) => usd.format(Number(amount));

/**
 * A calendar date from "YYYY-MM-DD" (optionally with a time part) without a time-zone shift:
 * a birthdate is the same day everywhere.
 */
export function parseCalendarDate(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  const real = date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
  return real ? date : null;
}

/** "January 5, 1990", or "Invalid date". */
export function formatLongDate(value: string): string {
  const date = parseCalendarDate(value);
  return date ? longDate.format(date) : INVALID_DATE;
}

/** "Jan 5, 2026" for a timestamp or calendar date, or "Invalid date". */
export function formatShortDate(value: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? parseCalendarDate(value) : new Date(value);
  return date && !Number.isNaN(date.getTime()) ? shortDate.format(date) : INVALID_DATE;
}
