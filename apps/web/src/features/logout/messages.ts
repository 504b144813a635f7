export const MAIN_APP_NAME = 'User Management System';

export const LOGOUT_STATUS = {
  waiting: 'Waiting...',
  signingOut: 'Signing out...',
  complete: 'Complete',
  error: 'Error',
} as const;
export type LogoutStatus = (typeof LOGOUT_STATUS)[keyof typeof LOGOUT_STATUS];

export const LOGOUT_MESSAGES = {
  title: 'Signing out',
  progress: (done: number, total: number) => `${done} of ${total} applications`,
  complete: 'Logout Complete',
  completeDetail: 'You have been successfully logged out of all applications.',
  redirecting: 'Redirecting to sign in page...',
  signInNow: 'Go to Sign In Now',
  /** Opened from a link rather than the app's own sign-out: the member is asked first. */
  confirmQuestion: 'Do you want to sign out of your membership account?',
  confirm: 'Sign out',
  stay: 'Stay signed in',
} as const;

/** SPEC section 9: 1 s per app, 2 s before the redirect, 15 s for a companion app's frame. */
export const LOGOUT_TIMING = { perAppMs: 1000, redirectMs: 2000, frameTimeoutMs: 15_000 } as const;
