import type { AuditEntry } from '@ums/contracts/audit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { firstOf } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';

export const auditKeys = { all: ['audit'] as const };

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
