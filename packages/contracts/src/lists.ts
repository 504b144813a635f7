/**
 * The paging contract of every list call, free of any schema library (the browser imports it):
 * `limit` (1-100), `cursor` (opaque, from the previous page), `q` (case-insensitive search) and `sort`
 * (a field, `-field` for descending). With `limit`, `data` holds one page and the envelope gains `page`.
 */
export const LIST_LIMIT_MAX = 100;
export const LIST_SEARCH_MAX = 100;

/** The fields each list sorts by; `defaultSort` applies when `sort` is absent (and to the whole list). */
export const LISTS = {
  membership: { sorts: ['name', 'membershipId', 'membershipLengthInMonths'], defaultSort: 'name' },
  discountPackage: { sorts: ['name', 'discountPackageId'], defaultSort: 'name' },
  product: { sorts: ['name', 'productId', 'retailPrice'], defaultSort: 'name' },
  promotionalProduct: { sorts: ['membershipName', 'productName'], defaultSort: 'membershipName' },
  paymentHistory: { sorts: ['date', 'orderId', 'totalAmount', 'status', 'productNames'], defaultSort: '-date' },
  subscriptions: { sorts: ['createdAt', 'pricePerInterval'], defaultSort: 'createdAt' },
  activity: { sorts: ['at'], defaultSort: '-at' },
  members: { sorts: ['email', 'createdAt'], defaultSort: 'email' },
  audit: { sorts: ['at'], defaultSort: '-at' },
} as const;
export type ListName = keyof typeof LISTS;
export type ListSortField<L extends ListName> = (typeof LISTS)[L]['sorts'][number];
export type ListSort<L extends ListName> = ListSortField<L> | `-${ListSortField<L>}`;

/** A sort a screen offers: `value` is the list call's `sort` ("" for the list's default). */
export interface ListSortOption<L extends ListName> {
  value: ListSort<L> | '';
  label: string;
}

export interface Page {
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** Rows in the whole filtered list, or with `totalAtLeast` a lower bound of them. */
  total: number;
  /**
   * Given by the searched and filtered pages of the large lists (the member directory, the audit trail): true when
   * the search or filter matched more than `SEARCH_COUNT_LIMIT` rows. `total` is then that limit, and the list holds
   * more.
   */
  totalAtLeast?: boolean;
}

/** Rows a search or filter of a large list counts before it answers "more than this many" (decision 053). */
export const SEARCH_COUNT_LIMIT = 1000;

export interface ListQuery {
  limit?: number;
  cursor?: string;
  q?: string;
  sort?: string;
}

/** The query string of a list request ("" when there is none), leaving out empty values. */
export function listQueryString(query: ListQuery): string {
  const params = new URLSearchParams();
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.cursor) params.set('cursor', query.cursor);
  if (query.q?.trim()) params.set('q', query.q.trim());
  if (query.sort) params.set('sort', query.sort);
  const text = params.toString();
  return text ? `?${text}` : '';
}
