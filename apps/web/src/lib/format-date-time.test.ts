import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format-date-time.js';
import { INVALID_DATE } from './messages.js';

describe('dates with times', () => {
  it("writes every moment as Intl's en-US short date with hour and minute does (with a plain space before AM/PM)", () => {
    const intl = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    const moments = [new Date(2026, 10, 23, 0, 0), new Date(2026, 10, 23, 12, 0), new Date(2026, 10, 23, 23, 59)];
    for (let i = 0; i < 3000; i++) moments.push(new Date(Math.random() * 4e12));
    for (const moment of moments) {
      expect(formatDateTime(moment.toISOString()), moment.toISOString()).toBe(intl.format(moment).replace(/\s/g, ' '));
    }
    expect(formatDateTime('2026-11-23T14:05:00Z'.replace('Z', ''))).toBe('Nov 23, 2026, 2:05 PM');
  });

  it('says "Invalid date" for what is not a moment', () => {
    expect(formatDateTime('yesterday-ish')).toBe(INVALID_DATE);
  });
});
