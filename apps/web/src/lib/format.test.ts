import { describe, expect, it } from 'vitest';
import { formatLongDate, formatShortDate, formatUsd, parseCalendarDate } from './format.js';
import { INVALID_DATE } from './messages.js';

describe('formats shown to people', () => {
  it('shows prices in USD with 2 decimals', () => {
    expect(formatUsd(12)).toBe('$12.00');
    expect(formatUsd('1234.5')).toBe('$1,234.50');
    expect(formatUsd(0.1)).toBe('$0.10');
  });

  it('shows a birthdate as a long US date, with or without a time part', () => {
    expect(formatLongDate('1990-01-05')).toBe('January 5, 1990');
    expect(formatLongDate('1990-01-05T00:00:00')).toBe('January 5, 1990');
    expect(formatLongDate('1990-12-31T23:30:00.000Z')).toBe('December 31, 1990');
  });

  it('says "Invalid date" for what is not a calendar date', () => {
    expect(formatLongDate('not a date')).toBe(INVALID_DATE);
    expect(formatLongDate('1990-02-30')).toBe(INVALID_DATE);
    expect(formatLongDate('')).toBe(INVALID_DATE);
    expect(parseCalendarDate('1990-13-01')).toBeNull();
  });

  it('shows order dates as "Mon D, YYYY"', () => {
    expect(formatShortDate('2026-03-07')).toBe('Mar 7, 2026');
    expect(formatShortDate('2026-03-07T12:00:00')).toBe('Mar 7, 2026');
    expect(formatShortDate('garbage')).toBe(INVALID_DATE);
  });

  it("writes every amount exactly as Intl's en-US USD format does: cents, halves, thousands, negatives, huge", () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
    const amounts: (number | string)[] = [0, -0, 1, 0.5, 0.005, 0.015, 1.005, 1.015, 2.675, 10.235, 99.995, 999.995];
    amounts.push(1000, 1234.5, 12345.678, 999999.999, 1e6, 123456789.125, -0.004, -0.005, -1234.565, '19.99', '7');
    amounts.push(1e21, 1e-7, 123456789012345680, Number.NaN, Number.POSITIVE_INFINITY);
    for (let i = 0; i < 5000; i++) amounts.push(Math.round(Math.random() * 10 ** (1 + (i % 9)) * 1000) / 1000);
    for (let i = 0; i < 2000; i++) amounts.push(Number(`${Math.floor(Math.random() * 100000)}.${i % 1000}5`));
    for (const amount of amounts) expect(formatUsd(amount), String(amount)).toBe(intl.format(Number(amount)));
  });

  it("writes every date exactly as Intl's en-US short and long dates do, from year 1 to 9999", () => {
    const short = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    const long = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
    const days: Date[] = [];
    for (let month = 0; month < 12; month++) days.push(new Date(2026, month, 1), new Date(1999, month, 28));
    for (let i = 0; i < 3000; i++) days.push(new Date(Math.random() * 8e12 - 2e12));
    for (const year of [1, 50, 999, 9999]) {
      const early = new Date(2000, 5, 15, 12);
      early.setFullYear(year);
      days.push(early);
    }
    for (const day of days) {
      expect(formatShortDate(day.toISOString()), day.toISOString()).toBe(short.format(day));
    }
    for (let i = 0; i < 3000; i++) {
      const day = new Date(100 + Math.floor(Math.random() * 9900), Math.floor(Math.random() * 12), 1 + (i % 28));
      const text = `${String(day.getFullYear()).padStart(4, '0')}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
      expect(formatLongDate(text), text).toBe(long.format(day));
      expect(formatShortDate(text), text).toBe(short.format(day));
    }
  });
});
