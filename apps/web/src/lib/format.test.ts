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
});
