/** A member's copy of their data (free of any schema library: the browser imports it). */

/** "Download my data" (GDPR article 15 and 20). */
export const MY_DATA_TEXTS = {
  action: 'Download my data',
  detail: 'Everything we hold about you, as one JSON file.',
} as const;
export const myDataFileName = (day: string) => `my-data-${day}.json`;
