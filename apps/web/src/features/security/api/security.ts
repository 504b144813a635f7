import type { DeviceSession, SecurityActivity } from '@ums/contracts/security';
import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { listOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';
import { pagedListQuery, pagedRows } from '../../../lib/paged-list.js';
import { ACTIVITY_PAGE_SIZE } from '../messages.js';

const securityKey = ['security'] as const;
const sessionsKey = [...securityKey, 'sessions'] as const;

/** The devices signed in to the account, this one among them. */
export const deviceSessionsQuery = (api: () => Promise<ApiClient>) =>
  queryOptions({
    queryKey: sessionsKey,
    queryFn: async () => listOf<DeviceSession>(await (await api()).get('/sessions')),
  });

export const useDeviceSessions = () => useQuery(deviceSessionsQuery(useApi()));

/** The newest activity first, 20 at a time. */
export function useSecurityActivity() {
  const query = useInfiniteQuery(
    pagedListQuery<SecurityActivity>(
      useApi(),
      [...securityKey, 'activity'],
      '/activity',
      { q: '', sort: '' },
      ACTIVITY_PAGE_SIZE,
    ),
  );
  return { ...query, ...pagedRows(query.data) };
}

/** Ends one other session (an id), or every other one (null); the devices and the activity load again. */
export function useEndSessions() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (sessionId: string | null) => {
      await (await api()).delete(sessionId === null ? '/sessions' : `/sessions/${encodeURIComponent(sessionId)}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKey }),
  });
}
