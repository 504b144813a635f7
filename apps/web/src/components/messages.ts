export const NOT_FOUND = {
  title: 'Page not found',
  detail: 'There is no page at this address.',
  home: 'Go to the start page',
} as const;

export const COMING_SOON = 'Coming soon';

/** Shown beside an error the server answered, with its request id, for support. */
export const REFERENCE = 'Reference:';

/** The search, sort and "load more" of the paged lists. */
export const LIST_TEXT = {
  sortBy: 'Sort by',
  showing: (shown: number, total: number, atLeast = false) => `Showing ${shown} of ${total}${atLeast ? '+' : ''}`,
  loadMore: 'Load more',
  loadingMore: 'Loading...',
  noMatch: (query: string) => `Nothing matches "${query}".`,
  exportCsv: 'Export CSV',
  exporting: 'Exporting...',
  exportFailed: 'The export did not work. Please try again.',
} as const;
