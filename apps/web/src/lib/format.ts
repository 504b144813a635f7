import { INVALID_DATE } from './messages.js';

// Prices and dates are shown in one fixed locale (en-US), written here by hand: a phone's first Intl.NumberFormat
// and Intl.DateTimeFormat cost about 60 and 20 ms of its main thread (loading the locale's data), one blocking task
// before the page can respond. The unit tests hold every result equal to Intl's.

const MONTHS = 'January February March April May June July August September October November December'.split(' ');

let intlUsd: Intl.NumberFormat | undefined;

/** "1,234": digits grouped by thousands. */
const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, ',');

/** "12,345": a count, as en-US writes it. */
export const formatCount = (n: number) => (n < 0 ? `-${grouped(String(-n))}` : grouped(String(n)));

/** "$1,234.50": prices are always USD with 2 decimals (half a cent rounds away from zero, as Intl does). */
export function formatUsd(amount: number | string): string {
  const value = Number(amount);
  // The shortest decimal that reads back as the number, which Intl rounds ("1.005" gives $1.01).
  const [whole = '', fraction = ''] = Math.abs(value).toString().split('.');
  if (!/^\d+$/.test(whole + fraction)) {
    // Not a plain decimal (NaN, Infinity, 1e+21): no price the API sends, but never a crash.
    intlUsd ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    return intlUsd.format(value);
  }
  const cents = String((BigInt(whole + fraction.padEnd(3, '0').slice(0, 3)) + 5n) / 10n).padStart(3, '0');
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}$${grouped(cents.slice(0, -2))}.${cents.slice(-2)}`;
}

/** "Jan 5, 2026" (short) or "January 5, 2026" for a date in the reader's time zone, years 1 to 9999. */
export const formatDate = (date: Date, short: boolean) =>
  `${MONTHS[date.getMonth()]!.slice(0, short ? 3 : undefined)} ${date.getDate()}, ${date.getFullYear()}`;

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
  return date ? formatDate(date, false) : INVALID_DATE;
}

/** "Jan 5, 2026" for a timestamp or calendar date, or "Invalid date". */
export function formatShortDate(value: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? parseCalendarDate(value) : new Date(value);
  return date && !Number.isNaN(date.getTime()) ? formatDate(date, true) : INVALID_DATE;
}
