import type { Subscription } from '@ums/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { listOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';

const subscriptionsKey = ['subscriptions'] as const;

export const subscriptionsQueryOptions = (api: () => Promise<ApiClient>) =>
  queryOptions({
    queryKey: subscriptionsKey,
    queryFn: async () => listOf<Subscription>(await (await api()).get('/UserSubscriptions')),
  });

export function useSubscriptions() {
  return useQuery(subscriptionsQueryOptions(useApi()));
}

/** Cancels on the server, then reloads the list. */
export function useDeleteSubscription() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (subscriptionId: number) => {
      await (await api()).delete(`/UserSubscriptions/${subscriptionId}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
  });
}
