/**
 * The members' security section, free of any schema library (the browser imports it): the events of the activity
 * list and their labels, and the shapes of a device session and an activity entry.
 */
export const SECURITY_EVENTS = [
  'sign-in',
  'sign-in-failed',
  'password-changed',
  'signed-out',
  'session-ended',
  'new-device',
] as const;
export type SecurityEventName = (typeof SECURITY_EVENTS)[number];

/** How the security section names each event. */
export const SECURITY_EVENT_LABELS: Record<SecurityEventName, string> = {
  'sign-in': 'Signed in',
  'sign-in-failed': 'Failed sign-in attempt',
  'password-changed': 'Password changed',
  'signed-out': 'Signed out',
  'session-ended': 'Session ended from another device',
  'new-device': 'Signed in from a new device',
};

/** Security activity is kept this many days, then swept. */
export const SECURITY_ACTIVITY_DAYS = 90;

/** One signed-in browser of the member (a session of the identity provider). */
export interface DeviceSession {
  /** The session's public id (never its cookie). */
  id: string;
  /** The session the calling browser is signed in with. */
  current: boolean;
  createdAt: string;
  lastActiveAt: string;
  browser: string;
  os: string;
  ipAddress: string | null;
}

/** One entry of the member's security activity. */
export interface SecurityActivity {
  at: string;
  event: SecurityEventName;
  browser: string;
  os: string;
  ipAddress: string | null;
}

export const SECURITY_MESSAGES = {
  sessionEnded: 'Session ended',
  othersEnded: 'Signed out everywhere else',
  currentSession: 'This is the session you are using: sign out from the menu instead.',
  managedElsewhere: 'Sessions are managed by your identity provider.',
  unknownCurrent:
    'This sign-in does not name its session, so the others cannot be told apart from it: sign out and in again.',
} as const;

/** A forgotten-password link works once, for this many minutes. */
export const PASSWORD_RESET_MINUTES = 30;

/** The embedded provider's forgotten-password pages and mail: the words members see. */
export const PASSWORD_RESET_TEXTS = {
  link: 'Forgot your password?',
  title: 'Forgot your password?',
  intro: 'Enter the email address of your account and we will send you a link to set a new password.',
  email: 'Email',
  send: 'Send link',
  badEmail: 'Enter the email address of your account, such as name@example.com.',
  sentTitle: 'Check your email',
  sent: 'If an account exists for that address, we sent a link.',
  sentDetail: `The link works once, within ${PASSWORD_RESET_MINUTES} minutes. If nothing arrives, check your spam folder or ask again.`,
  tooMany: 'Too many requests. Please wait a few minutes and try again.',
  backToSignIn: 'Back to sign in',
  resetTitle: 'Set a new password',
  newPassword: 'New password',
  confirmPassword: 'Confirm password',
  rules: 'Password rules',
  met: 'met',
  notMet: 'not met',
  save: 'Set password',
  invalidTitle: 'This link no longer works',
  invalid: 'This link has expired or was already used.',
  askAgain: 'Ask for a new link',
  mailSubject: 'Reset your password',
} as const;
