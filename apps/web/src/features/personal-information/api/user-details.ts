import type { UserDetails, UserDetailsInput } from '@ums/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../../lib/api-client.js';
import { firstOf } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';

export const userDetailsQueryKey = ['user-details'] as const;

export const userDetailsQueryOptions = (api: () => Promise<ApiClient>) =>
  queryOptions({
    queryKey: userDetailsQueryKey,
    queryFn: async () => firstOf<UserDetails>(await (await api()).get('/userdetails/')),
  });

export function useUserDetails() {
  return useQuery(userDetailsQueryOptions(useApi()));
}

/** Saves and shows what the server kept (the answer is the saved record). */
export function useSaveUserDetails() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: UserDetailsInput) =>
      firstOf<UserDetails>(await (await api()).post('/userdetails/internal', input)),
    onSuccess: (saved) => {
      if (saved) queryClient.setQueryData(userDetailsQueryKey, saved);
      else void queryClient.invalidateQueries({ queryKey: userDetailsQueryKey });
    },
  });
}
