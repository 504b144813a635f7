import { requiredTextProblem } from './one-line.js';

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
  'factor-added',
  'factor-removed',
  'recovery-codes-regenerated',
  'recovery-code-used',
  'email-change-requested',
  'email-changed',
  'email-change-reverted',
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
  'factor-added': 'Two-step verification method added',
  'factor-removed': 'Two-step verification method removed',
  'recovery-codes-regenerated': 'New recovery codes made',
  'recovery-code-used': 'Signed in with a recovery code',
  'email-change-requested': 'Email change requested',
  'email-changed': 'Email address changed',
  'email-change-reverted': 'Email address restored',
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

/** How many recovery codes a set holds; each works once. */
export const RECOVERY_CODE_COUNT = 10;
/** The issuer an authenticator app shows beside the account's email. */
export const TOTP_ISSUER = 'UMS';

/** A member's second factors as the Security section lists them: kinds, names and dates, never a secret. */
export interface SecurityFactors {
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null; backedUp: boolean }[];
  totp: { enabled: boolean; createdAt: string | null };
  recoveryCodes: { remaining: number };
}

/** The authenticator app's key while it is being set up: shown once, as a QR code and as text. */
export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
}

/** The answer to adding the account's first second factor, or to regenerating codes: the codes, shown once. */
export interface RecoveryCodesIssued {
  recoveryCodes: string[];
}

/** The API's words about second factors. */
export const FACTOR_MESSAGES = {
  totpSetupStarted: 'Scan the code with your authenticator app, then enter the 6-digit code it shows.',
  totpEnabled: 'Authenticator app set up',
  totpRemoved: 'Authenticator app removed',
  totpAlreadyEnabled: 'An authenticator app is already set up: remove it first to set up another.',
  totpNoSetup: 'No authenticator app setup is waiting for a code: start the setup again.',
  totpNotEnabled: 'No authenticator app is set up.',
  wrongCode: 'That code is not right. Enter the current 6-digit code from your authenticator app.',
  malformedCode: 'Enter the 6-digit code from your authenticator app.',
  codesRegenerated: 'New recovery codes made: the old ones no longer work.',
  codesNeedAFactor: 'Recovery codes come with a second factor: set up an authenticator app or a passkey first.',
  tooManyCodes: 'Too many wrong codes. Please wait 15 minutes and try again.',
  codeRequired: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  wrongConfirmationCode:
    'That code is not right. Enter the current code from your authenticator app, or an unused recovery code.',
  mfaRequired:
    'This needs a sign-in with two-step verification: set up an authenticator app or a passkey in Security, then sign out and in again.',
} as const;

/** The provider's second sign-in page: the words members see. */
export const SECOND_FACTOR_TEXTS = {
  title: 'Two-step verification',
  intro: 'Enter the 6-digit code from your authenticator app.',
  codeLabel: 'Authentication code',
  verify: 'Verify',
  usePasskey: 'Use a passkey',
  useRecoveryCode: 'Use a recovery code',
  useAuthenticator: 'Use your authenticator app',
  recoveryIntro: 'Enter one of the recovery codes you saved when you set up two-step verification.',
  recoveryLabel: 'Recovery code',
  wrongCode: 'That code is not right. Enter the current 6-digit code from your authenticator app.',
  wrongRecoveryCode: 'That recovery code is not right, or it was already used.',
  tooMany: 'Too many wrong codes. Please wait 15 minutes and try again.',
  expired: 'This sign-in took too long. Please start again.',
  passkeyIntro: 'Use the passkey you set up for this account.',
} as const;

/** The provider's passkey sign-in: the words members see. */
export const PASSKEY_SIGN_IN_TEXTS = {
  signInWithPasskey: 'Sign in with a passkey',
  failed: 'The passkey did not sign you in. Try again, or use your password.',
  refused: 'That passkey could not sign you in. Try again, or use your password.',
} as const;

/** A passkey's name is at most this long (one line). */
export const PASSKEY_NAME_MAX = 60;
/** How the API and the Security section name a passkey's name in their messages. */
export const PASSKEY_NAME_LABEL = 'Passkey name';

/** What is wrong with a passkey name, in the API's own words (its body schema applies the same rule), or null. */
export const passkeyNameProblem = (name: string) => requiredTextProblem(PASSKEY_NAME_LABEL, PASSKEY_NAME_MAX, name);

/** The API's words about passkeys. */
export const PASSKEY_MESSAGES = {
  added: 'Passkey added',
  renamed: 'Passkey renamed',
  removed: 'Passkey removed',
  notFound: 'No such passkey.',
  refused: 'This passkey could not be verified. Please try again.',
  alreadyRegistered: 'This passkey is already registered.',
} as const;

/** The provider's enrolment, for a member of an MFA_REQUIRED_GROUPS group with no second factor yet. */
export const ENROLMENT_TEXTS = {
  title: 'Set up two-step verification',
  intro:
    'Your account needs a second step when you sign in. Scan this code with an authenticator app (or enter the key), then enter the 6-digit code it shows.',
  keyLabel: 'Key',
  codeLabel: 'Authentication code',
  confirm: 'Turn on',
  codesTitle: 'Save your recovery codes',
  codesIntro:
    'Each code signs you in once if you lose your authenticator app. Keep them somewhere safe: they are not shown again.',
  continue: 'Continue',
} as const;

/** The Security section's second factors: the words members see on the account page. */
export const SECOND_FACTOR_UI_TEXTS = {
  /** Beside the password, where a change needs both (a new password, closing the account). */
  confirmationCodeLabel: 'Authentication code',
  confirmationCodeHint: 'The 6-digit code from your authenticator app, or one of your recovery codes.',
  title: 'Two-step verification',
  loading: 'Loading sign-in methods...',
  loadFailed: 'Failed to load sign-in methods',
  managedElsewhere: 'Your sign-in methods are managed by your identity provider.',
  passkeysTitle: 'Passkeys',
  passkeysIntro: 'Sign in with your fingerprint, face or screen lock instead of a password.',
  passkeysNone: 'No passkeys yet.',
  passkeyAdded: (when: string) => `Added ${when}`,
  passkeyLastUsed: (when: string | null) => (when ? `Last used ${when}` : 'Never used'),
  passkeySynced: 'Synced',
  passkeyDeviceOnly: 'This device only',
  addPasskey: 'Add a passkey',
  passkeyWaiting: 'Follow the prompt of your browser or device...',
  passkeyCancelled: 'No passkey was added: the prompt was closed or timed out. Try again when you are ready.',
  passkeyAlreadyHere: 'This device or password manager already holds a passkey for your account.',
  passkeyAddFailed: 'Failed to add the passkey',
  passkeyNameTitle: 'Name your passkey',
  passkeyNameIntro:
    'Your passkey is ready. Give it a name that tells it apart, such as the device or password manager keeping it.',
  passkeyNameLabel: PASSKEY_NAME_LABEL,
  passkeyNameHint: `Up to ${PASSKEY_NAME_MAX} characters, on one line.`,
  passkeySuggestedName: (device: string | null) => (device ? `Passkey on ${device}` : 'Passkey'),
  save: 'Save',
  rename: 'Rename',
  renameLabel: (name: string) => `Rename ${name}`,
  renameTitle: 'Rename passkey',
  renameFailed: 'Failed to rename the passkey',
  removeLabel: (name: string) => `Remove ${name}`,
  removePasskeyTitle: (name: string) => `Remove the passkey "${name}"?`,
  removePasskeyBody:
    'It will no longer sign you in. You can also delete it from the device or password manager that keeps it.',
  removePasskeyFailed: 'Failed to remove the passkey',
  authenticatorTitle: 'Authenticator app',
  authenticatorOn: (since: string) => `On since ${since}`,
  authenticatorOff: 'Not set up',
  setUp: 'Set up',
  remove: 'Remove',
  removeTitle: 'Remove the authenticator app?',
  removeBody: 'Codes from the app will no longer sign you in.',
  removeFailed: 'Failed to remove the authenticator app',
  setupTitle: 'Set up an authenticator app',
  setupIntro: 'Scan the QR code with your authenticator app, or enter the key, then enter the 6-digit code it shows.',
  setupLoading: 'Preparing the key...',
  setupFailed: 'Failed to start the setup',
  qrLabel: 'QR code for your authenticator app',
  keyLabel: 'Key',
  codeLabel: '6-digit code',
  codeInvalid: 'Enter the 6 digits your authenticator app shows.',
  confirm: 'Turn on',
  confirmFailed: 'Failed to turn on the authenticator app',
  cancel: 'Cancel',
  recoveryTitle: 'Recovery codes',
  remaining: (count: number) => `${count} of ${RECOVERY_CODE_COUNT} recovery codes left`,
  regenerate: 'Make new recovery codes',
  regenerateTitle: 'Make new recovery codes?',
  regenerateBody: 'Your old recovery codes stop working at once.',
  regenerateFailed: 'Failed to make new recovery codes',
  codesTitle: 'Save your recovery codes',
  codesIntro:
    'Each code signs you in once if you cannot use your passkey or authenticator app. Keep them somewhere safe: they are not shown again.',
  codesListLabel: 'Recovery codes',
  download: 'Download',
  copy: 'Copy',
  copied: 'Copied',
  saved: 'I have saved these codes',
  done: 'Done',
  fileName: 'ums-recovery-codes.txt',
  fileHeading: 'UMS recovery codes (each works once)',
} as const;
