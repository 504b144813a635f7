// Apart from format.ts: only screens loaded on first use show dates with times, so this stays out of the first chunk.
const dateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** "Nov 23, 2026, 2:05 PM" in the reader's own time zone. */
export const formatDateTime = (value: string) => dateTime.format(new Date(value));
