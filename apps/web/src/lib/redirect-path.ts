const KEY = 'ums.redirect-path';

/** Remembers where a signed-out visitor was going (path, query and hash). */
export function saveRedirectPath(path: string, storage: Storage = sessionStorage): void {
  storage.setItem(KEY, path);
}

/** The stored path, removed once read; only same-site paths are honoured. */
export function takeRedirectPath(storage: Storage = sessionStorage): string | null {
  const path = storage.getItem(KEY);
  storage.removeItem(KEY);
  return path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : null;
}
