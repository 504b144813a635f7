import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';
import type { RecoveryCodesIssued, SecurityFactors, TotpSetup } from '@ums/contracts/security';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { firstOf } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';
import { factorsKey, useSecurityFactors } from '../../../lib/security-factors.js';

export { useSecurityFactors };

/** One of the member's passkeys as the Security section lists it. */
export type PasskeySummary = SecurityFactors['passkeys'][number];

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

/**
 * A new passkey from the browser, not yet saved: the API's creation options, then the browser's prompt.
 * @simplewebauthn/browser loads on first use, so it stays out of the account page's first load.
 */
export function useCreatePasskey() {
  const api = useApi();
  return useMutation({
    mutationFn: async () => {
      const optionsJSON = firstOf<PublicKeyCredentialCreationOptionsJSON>(
        await (await api()).post('/security/passkeys/options', {}),
      );
      if (!optionsJSON) throw new Error('The API answered no passkey options');
      const { startRegistration } = await import('@simplewebauthn/browser');
      return { rpId: optionsJSON.rp.id, response: await startRegistration({ optionsJSON }) };
    },
  });
}

/**
 * Tells the browser that a passkey it just made will not be saved (its name was never given), so the device or
 * password manager can drop it rather than offer a passkey that signs nobody in. Best effort: browsers without the
 * WebAuthn signal API keep it.
 */
export async function forgetUnsavedPasskey(rpId: string | undefined, credentialId: string) {
  if (!rpId) return;
  try {
    const { sendSignal } = await import('@simplewebauthn/browser');
    await sendSignal({ signalName: 'unknownCredential', rpID: rpId, credentialID: credentialId });
  } catch {
    // Nothing to tell the member: the passkey was not saved either way.
  }
}

/** Saves the browser's new passkey under a name; the answer holds recovery codes when it is the first second factor. */
export function useSavePasskey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (passkey: { response: RegistrationResponseJSON; name: string }) =>
      firstOf<{ id: string; recoveryCodes?: string[] }>(await (await api()).post('/security/passkeys', passkey)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: factorsKey }),
  });
}

const passkeyPath = (id: string) => `/security/passkeys/${encodeURIComponent(id)}`;

export function useRenamePasskey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) => {
      await (await api()).patch(passkeyPath(id), { name });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: factorsKey }),
  });
}

export function useRemovePasskey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await (await api()).delete(passkeyPath(id));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: factorsKey }),
  });
}
