import type { EmailChangeStatus } from '@ums/contracts/self-service/email-change';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { firstOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';

/**
 * While a change waits for its link (opened in another tab, or another browser), the row asks this often in the
 * first minutes after it was asked for (the member is likely opening the mail), then once a minute.
 */
export const PENDING_REFRESH_MS = 5000;
export const PENDING_SLOW_REFRESH_MS = 60_000;
const PENDING_FAST_FOR_MS = 10 * 60_000;

const refreshEvery = (pending: EmailChangeStatus['pending'] | undefined) => {
  if (!pending) return false;
  return Date.now() - Date.parse(pending.requestedAt) < PENDING_FAST_FOR_MS
    ? PENDING_REFRESH_MS
    : PENDING_SLOW_REFRESH_MS;
};

export const emailChangeStatusKey = ['me', 'email-change'] as const;

/** GET /api/me/email-change: the address, whether it is verified, and a change waiting for its link. */
export const emailChangeStatusQueryOptions = (api: () => Promise<ApiClient>) =>
  queryOptions({
    queryKey: emailChangeStatusKey,
    queryFn: async () => firstOf<EmailChangeStatus>(await (await api()).get('/me/email-change')),
    refetchInterval: (query) => refreshEvery(query.state.data?.pending),
    refetchOnWindowFocus: (query) => Boolean(query.state.data?.pending),
  });

/** The status, asked only where the member changes their email in the app (`enabled`). */
export function useEmailChangeStatus(enabled: boolean) {
  return useQuery({ ...emailChangeStatusQueryOptions(useApi()), enabled });
}
