import type { RecoveryCodesIssued, SecurityFactors, TotpSetup } from '@ums/contracts/security';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { firstOf } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';

const factorsKey = ['security', 'factors'] as const;

export function useSecurityFactors() {
  const api = useApi();
  return useQuery({
    queryKey: factorsKey,
    queryFn: async () => firstOf<SecurityFactors>(await (await api()).get('/security/factors')),
  });
}

/** Starts the authenticator app's setup: a new key, shown once. */
export function useStartTotpSetup() {
  const api = useApi();
  return useMutation({
    mutationFn: async () => firstOf<TotpSetup>(await (await api()).post('/security/totp/setup', {})),
  });
}

/** Confirms the setup with a code; the answer holds recovery codes when it is the first second factor. */
export function useConfirmTotp() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) =>
      firstOf<Partial<RecoveryCodesIssued>>(await (await api()).post('/security/totp', { code })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: factorsKey }),
  });
}

export function useRemoveTotp() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await (await api()).delete('/security/totp');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: factorsKey }),
  });
}

/** New recovery codes; the old ones stop working. */
export function useRegenerateRecoveryCodes() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => firstOf<RecoveryCodesIssued>(await (await api()).post('/security/recovery-codes', {})),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: factorsKey }),
  });
}
