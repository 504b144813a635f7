import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from './api-client.js';

/** Server state: a client error (4xx) is an answer, not a hiccup, so only other failures are retried once. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) =>
          failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
}

/** Marks every query under these keys stale (refetching the shown ones); resolves when they have reloaded. */
export const invalidateAll = (queryClient: QueryClient, keys: readonly QueryKey[]) =>
  Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
