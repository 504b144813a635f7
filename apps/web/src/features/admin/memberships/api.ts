import type { Membership, MembershipInput, PromotionalProductLink } from '@ums/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { firstOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';
import { usePagedList, type ListView } from '../../../lib/paged-list.js';
import { invalidateAll } from '../../../lib/query-client.js';
import { promotionalProductKeys } from '../promotional-products/api.js';
import { saveMembership, type SavedState } from './save-membership.js';

export const membershipKeys = {
  all: ['admin', 'memberships'] as const,
  detail: (id: number) => [...membershipKeys.all, 'detail', id] as const,
};

export const membershipQuery = (api: () => Promise<ApiClient>, id: number) =>
  queryOptions({
    queryKey: membershipKeys.detail(id),
    queryFn: async () => firstOf<Membership>(await (await api()).get(`/membership/${id}`)),
  });

/** The memberships a page at a time, searched and sorted on the server. */
export const useMembershipList = (view: ListView) => usePagedList<Membership>(membershipKeys.all, '/membership', view);

export function useMembership(id: number | null) {
  const api = useApi();
  return useQuery({ ...membershipQuery(api, id ?? 0), enabled: id !== null });
}

/** The SPEC section 7 calls a membership save is made of. */
export function membershipCalls(api: ApiClient) {
  return {
    create: async (input: MembershipInput) => firstOf<Membership>(await api.post('/membership', input)),
    update: async (id: number, input: MembershipInput) =>
      firstOf<Membership>(await api.put(`/membership/${id}`, { ...input, membershipId: id })),
    addPromotionalProducts: (links: PromotionalProductLink[]) => api.post('/promotionalProduct/batch', links),
    removePromotionalProduct: (link: PromotionalProductLink) => api.delete('/promotionalProduct', link),
  };
}
export type MembershipCalls = ReturnType<typeof membershipCalls>;

/**
 * Saves a membership and reconciles its promotional products. Saved or not, the membership and promotional lists
 * reload before the caller goes on, so they tell the truth about what reached the server.
 */
export function useSaveMembership() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (save: { saved: SavedState; input: MembershipInput; selected: readonly number[] }) =>
      saveMembership(membershipCalls(await api()), save.saved, save.input, save.selected),
    onSettled: () => invalidateAll(queryClient, [membershipKeys.all, promotionalProductKeys.all]),
  });
}
