import type { SecurityFactors } from '@ums/contracts/security';
import { useQuery } from '@tanstack/react-query';
import { firstOf } from './api-client.js';
import { useApi } from './api-context.js';

/** The member's sign-in methods (GET /api/security/factors), cached under one key for every screen that asks. */
export const factorsKey = ['security', 'factors'] as const;

export function useSecurityFactors() {
  const api = useApi();
  return useQuery({
    queryKey: factorsKey,
    queryFn: async () => firstOf<SecurityFactors>(await (await api()).get('/security/factors')),
  });
}

/**
 * Whether the member's account has a second factor: a new password, or closing the account, then asks for its code
 * beside the password. False while it is not known, and with another identity provider (which keeps its own).
 */
export function useHasSecondFactor(): boolean {
  const { data } = useSecurityFactors();
  return Boolean(data && (data.totp.enabled || data.passkeys.length > 0));
}
