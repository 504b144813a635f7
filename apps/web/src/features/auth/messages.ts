/** Texts of the sign-in states (SPEC sections 2 and 8). */
export const AUTH_MESSAGES = {
  completingSignIn: 'Completing sign in...',
  loading: 'Loading...',
  redirecting: 'Redirecting to sign in...',
  authenticationFailed: (message: string) => `Authentication failed: ${message}`,
  authenticationError: (message: string) => `Authentication error: ${message}`,
  loadingUser: 'Loading user information...',
  accessDenied: 'Access Denied',
  accessDeniedFallback: "You don't have permission to view this page.",
  needsGroup: (group: string) => `You need to be in the '${group}' group to access this area.`,
} as const;

/** How long an authentication error stays readable before the next sign-in attempt. */
export const AUTH_ERROR_PAUSE_MS = 3000;
/** After a silent renew times out, try again after this long. */
export const SILENT_RENEW_RETRY_MS = 5000;
