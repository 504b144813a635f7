// Sign-in state, the routes' guards and the browser's token storage.
export { AdminGate } from './admin-gate.js';
export { CallbackPage } from './callback-page.js';
export { forgetDpopKeys } from './dpop-key-store.js';
export { AUTH_MESSAGES } from './messages.js';
export { consoleRoles, roleGroupsOf, userManagerSettings } from './oidc-settings.js';
export { SessionProvider, useSessionPending } from './session-provider.js';
export { announceSignOut } from './session-restore.js';
export { RequireAuth } from './require-auth.js';
export { SilentRenewRetry, useSilentRenewRetry } from './silent-renew-retry.js';
export { clearAuthStorage, clearTokenEntries, storedIdToken } from './token-storage.js';
