import type { AuditEntry } from '@ums/contracts/audit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { firstOf } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';
import { usePagedList, type ListView } from '../../../lib/paged-list.js';

export const auditKeys = { all: ['audit'] as const };

/** What the audit trail filters by; every filter is optional. */
export interface AuditFilters {
  entity?: string;
  entityId?: string;
  actor?: string;
}

/** The audit trail's list call narrowed by `filters` (its CSV export takes the same path). */
export function auditPath(filters: AuditFilters): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  return `/admin/audit${query.size > 0 ? `?${query.toString()}` : ''}`;
}

/** The audit trail a page at a time, newest first unless sorted otherwise, narrowed by `filters`. */
export const useAuditEntries = (filters: AuditFilters, view: ListView) =>
  usePagedList<AuditEntry>(auditKeys.all, auditPath(filters), view);

/**
 * Reverts an entry. Whatever it changed (a membership, a package, a member) may be on another screen's cache, so
 * every query reloads afterwards.
 */
export function useRevert() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => firstOf<AuditEntry>(await (await api()).post(`/admin/audit/${id}/revert`, {})),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
