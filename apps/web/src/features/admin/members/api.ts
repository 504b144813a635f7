import type { AdminMember, AdminMemberDetails, PaymentHistoryEntry, SecurityActivity } from '@ums/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { firstOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';
import { usePagedList, type ListView, type PageOf } from '../../../lib/paged-list.js';

/** The member's lists that their page pages through (`/admin/members/{id}/{list}`), by each item's type. */
export interface MemberPages {
  orders: PaymentHistoryEntry;
  activity: SecurityActivity;
}

export const memberKeys = {
  all: ['members'] as const,
  one: (id: string) => ['members', 'one', id] as const,
  pages: (id: string, list: keyof MemberPages) => ['members', 'one', id, list] as const,
};

/** The member directory a page at a time, searched by email or name and sorted on the server. */
export const useMemberList = (view: ListView) => usePagedList<AdminMember>(memberKeys.all, '/admin/members', view);

/**
 * What support sees of one member: account, held details, subscriptions, sessions, and the newest page of their orders
 * and of their security activity.
 */
export const memberDetailsQuery = (api: () => Promise<ApiClient>, id: string) =>
  queryOptions({
    queryKey: memberKeys.one(id),
    queryFn: async () => firstOf<AdminMemberDetails>(await (await api()).get(`/admin/members/${id}`)),
  });

export const useMemberDetails = (id: string) => useQuery(memberDetailsQuery(useApi(), id));

/**
 * One of the member's lists (their orders, their security activity), newest first, a page at a time. The member's
 * details carried the newest page (`first`): the list starts from it and asks only for the pages after it.
 */
export const useMemberPages = <List extends keyof MemberPages>(
  id: string,
  list: List,
  first: { page: PageOf<MemberPages[List]>; updatedAt: number },
) =>
  usePagedList<MemberPages[List]>(
    memberKeys.pages(id, list),
    `/admin/members/${id}/${list}`,
    { q: '', sort: '' },
    true,
    first,
  );

/**
 * Ends every session of the member, replaces their groups or resets their sign-in methods; the directory and the
 * member reload afterwards.
 */
export function useMemberActions(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: memberKeys.all });
  const endSessions = useMutation({
    mutationFn: async () => (await api()).post<{ message: string }>(`/admin/members/${id}/end-sessions`, {}),
    onSuccess: reload,
  });
  const setGroups = useMutation({
    mutationFn: async (groups: string[]) =>
      (await api()).put<{ message: string }>(`/admin/members/${id}/groups`, { groups }),
    onSuccess: reload,
  });
  const resetSignInMethods = useMutation({
    mutationFn: async () => (await api()).post<{ message: string }>(`/admin/members/${id}/reset-sign-in-methods`, {}),
    onSuccess: reload,
  });
  return { endSessions, setGroups, resetSignInMethods };
}
