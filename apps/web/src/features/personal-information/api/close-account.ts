import type { AccountDeletion } from '@ums/contracts';
import { useMutation } from '@tanstack/react-query';
import { firstOf } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';

/** What closing the account is confirmed with: the current password, and the second factor's code when there is one. */
export interface CloseAccountConfirmation {
  password: string;
  code?: string;
}

/** Schedules the account's deletion; the server ends every session, so `onClosed` signs this tab out. */
export function useCloseAccount(onClosed: () => void) {
  const api = useApi();
  return useMutation({
    mutationFn: async (confirmation: CloseAccountConfirmation) =>
      firstOf<AccountDeletion>(await (await api()).post('/me/deletion', confirmation)),
    onSuccess: onClosed,
  });
}
