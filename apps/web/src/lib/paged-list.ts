import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { listQueryString, type Page } from '@ums/contracts/lists';
import { useSearchParams } from 'react-router';
import type { ApiClient } from './api-client.js';
import { useApi } from './api-context.js';

/** `path` (which may carry its own filters) with a query string from `listQueryString` added. */
export const withQuery = (path: string, query: string) =>
  query ? `${path}${path.includes('?') ? `&${query.slice(1)}` : query}` : path;

/** Rows per request of every paged list. */
export const PAGE_SIZE = 25;
/** How long typing pauses before a search is sent. */
export const SEARCH_DELAY_MS = 300;

export type ListViewState = ListView & { setQ: (q: string) => void; setSort: (sort: string) => void };

export interface PageOf<T> {
  items: T[];
  page: Page;
}

/** What a list shows: its search and sort, as in the address (so a link reproduces the view). */
export interface ListView {
  q: string;
  sort: string;
}

/**
 * A list read a page at a time from a list call: the next page continues from the previous one's cursor. The key
 * starts with the resource's key, so a write that invalidates the resource reloads its pages too.
 */
export function pagedListQuery<T>(
  api: () => Promise<ApiClient>,
  resourceKey: readonly unknown[],
  path: string,
  view: ListView,
  limit = PAGE_SIZE,
) {
  const q = view.q.trim();
  return infiniteQueryOptions({
    queryKey: [...resourceKey, 'pages', path, { q, sort: view.sort, limit }],
    queryFn: async ({ pageParam }): Promise<PageOf<T>> => {
      const answer = await (
        await api()
      ).get<{ data?: T[]; page?: Page }>(
        withQuery(path, listQueryString({ limit, q, sort: view.sort || undefined, cursor: pageParam })),
      );
      const items = answer?.data ?? [];
      return { items, page: answer?.page ?? { nextCursor: null, total: items.length } };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.page.nextCursor ?? undefined,
  });
}

/**
 * The rows of every page loaded so far, and the filtered list's size: with `totalAtLeast`, a search or filter of a
 * large list matched more than `total` (decision 053), until its last page is loaded.
 */
export function pagedRows<T>(data: InfiniteData<PageOf<T>> | undefined) {
  const pages = data?.pages ?? [];
  const rows = pages.flatMap((p) => p.items);
  const last = pages.at(-1)?.page;
  // Every page loaded: the rows are the list, whatever the search counted.
  if (last?.totalAtLeast && last.nextCursor === null) return { rows, total: rows.length, totalAtLeast: false };
  return { rows, total: last?.total ?? 0, totalAtLeast: last?.totalAtLeast === true };
}

export function usePagedList<T>(
  resourceKey: readonly unknown[],
  path: string,
  view: ListView,
  enabled = true,
  /** The first page when another answer already carried it (and when that answer was fetched): not asked again. */
  first?: { page: PageOf<T>; updatedAt: number },
) {
  // A new search or sort keeps the rows on screen until its first page arrives.
  const query = useInfiniteQuery({
    ...pagedListQuery<T>(useApi(), resourceKey, path, view),
    enabled,
    placeholderData: keepPreviousData,
    ...(first && {
      initialData: { pages: [first.page], pageParams: [undefined] },
      initialDataUpdatedAt: first.updatedAt,
    }),
  });
  return { ...query, ...pagedRows(query.data) };
}

/**
 * One query-string parameter of the address as state: setting it replaces the history entry (no entry per
 * keystroke), and "" removes it.
 */
export function useAddressParam(name: string): [string, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const set = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  return [params.get(name) ?? '', set];
}

/** The list's search and sort from the address (`?q=...&sort=...`); `sort` is "" for the list's default. */
export function useListView(): ListViewState {
  const [q, setQ] = useAddressParam('q');
  const [sort, setSort] = useAddressParam('sort');
  return { q, sort, setQ, setSort };
}

export type PagedList<T> = ReturnType<typeof usePagedList<T>>;
