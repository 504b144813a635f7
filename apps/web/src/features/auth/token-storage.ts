/** The access token entries the sign-out confirmation removes. */
export const TOKEN_KEYS = ['cognito_access_token', 'accessToken'] as const;
/** Logout removes every entry whose key contains one of these. */
export const AUTH_KEY_PARTS = ['oidc', 'cognito', 'auth'] as const;

const stores = (): Storage[] => [sessionStorage, localStorage];

export function clearTokenEntries(): void {
  for (const store of stores()) for (const key of TOKEN_KEYS) store.removeItem(key);
}

/** Removes stored tokens, the signed-in user and sign-in state from both storages. */
export function clearAuthStorage(): string[] {
  const removed: string[] = [];
  for (const store of stores()) {
    const keys = Array.from({ length: store.length }, (_, i) => store.key(i)).filter((k): k is string => k !== null);
    for (const key of keys) {
      const lower = key.toLowerCase();
      if (AUTH_KEY_PARTS.some((part) => lower.includes(part)) || (TOKEN_KEYS as readonly string[]).includes(key)) {
        store.removeItem(key);
        removed.push(key);
      }
    }
  }
  return removed;
}

/** The ID token of the stored user (oidc-client-ts keeps it under "oidc.user:..."), for the logout hint. */
export function storedIdToken(): string | null {
  for (const store of stores()) {
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i);
      if (!key?.startsWith('oidc.user:')) continue;
      try {
        const user = JSON.parse(store.getItem(key) ?? '') as { id_token?: unknown };
        if (typeof user.id_token === 'string') return user.id_token;
      } catch {
        // a damaged entry is cleared with the rest
      }
    }
  }
  return null;
}
