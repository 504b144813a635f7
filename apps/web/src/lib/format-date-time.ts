import { formatDate } from './format.js';
import { INVALID_DATE } from './messages.js';

// Apart from format.ts: only screens loaded on first use show dates with times. Written by hand like the dates
// (a first Intl.DateTimeFormat blocks a phone's main thread for tens of milliseconds); the space before AM/PM is a
// plain one, which some browsers' Intl writes as a narrow no-break space.

/** "Nov 23, 2026, 2:05 PM" in the reader's own time zone, or "Invalid date". */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return INVALID_DATE;
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${formatDate(date, true)}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}
