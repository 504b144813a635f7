/** Changing the account's email address (free of any schema library: the browser imports it). */

/** The link mailed to the new address works once, for this many hours. */
export const EMAIL_CHANGE_LINK_HOURS = 24;
/** The "This wasn't me" link mailed to the old address works once, for this many days. */
export const EMAIL_REVERT_DAYS = 7;
/** The longest email address (RFC 5321's path limit, as the account store allows). */
export const EMAIL_MAX_LENGTH = 254;
/**
 * Plainly an address (something, @, a domain with a dot, no spaces): the cheap check a page or form makes before it
 * sends one (the API's schema checks the rest).
 */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the member sees of their address: the current one, and a change waiting for its link. */
export interface EmailChangeStatus {
  email: string;
  emailVerified: boolean;
  pending: { newEmail: string; requestedAt: string; expiresAt: string } | null;
}

/** The words of Login Details' email row and dialog, the API's answers, the provider's pages and the mails. */
export const EMAIL_CHANGE_TEXTS = {
  // Login Details.
  edit: 'Change email',
  title: 'Change email',
  intro:
    'We will send a link to the new address. Your email stays as it is until you open that link; then you sign in with the new address.',
  newEmail: 'New email address',
  password: 'Current password',
  passwordRequired: 'Enter your current password',
  send: 'Send link',
  sending: 'Sending...',
  cancel: 'Cancel',
  waiting: (newEmail: string) => `Waiting for confirmation of ${newEmail}`,
  waitingDetail: (hours: number) =>
    `Open the link we sent to that address within ${hours} hours. Until then, sign in with your current address.`,
  resend: 'Resend',
  resent: 'Link sent again',
  cancelChange: 'Cancel change',
  unverified: 'Not verified',
  changedHere: (email: string) => `Your email address is now ${email}`,
  // API answers.
  requested: 'Check your new email address for a link to confirm the change',
  cancelled: 'Email change cancelled',
  sameAddress: 'That is already your email address.',
  badAddress: 'Enter an email address such as name@example.com.',
  tooLong: `An email address is at most ${EMAIL_MAX_LENGTH} characters.`,
  wrongPassword: 'Current password is incorrect.',
  tooMany: 'Too many requests. Please wait a few minutes and try again.',
  nothingPending: 'There is no email change waiting for confirmation.',
  managedElsewhere: 'Your email address is managed by your identity provider: change it there.',
  // The provider's pages.
  confirmTitle: 'Confirm your new email address',
  confirmText: (newEmail: string) =>
    `Make ${newEmail} the email address of your account? From then on you sign in with it, and every other device is signed out.`,
  confirm: 'Confirm new address',
  confirmedTitle: 'Your email address was changed',
  confirmedText: (newEmail: string) => `Sign in with ${newEmail} from now on.`,
  continue: 'Continue to your account',
  invalidTitle: 'This link no longer works',
  linkUnknown: 'This link is not valid. Copy the whole link from the email, or ask for the change again.',
  linkUsed: 'This link was already used: the change it confirms has been made.',
  linkExpired: 'This link has expired. Ask for the change again from Login Details.',
  linkCancelled: 'This change was cancelled, so the link no longer works.',
  linkSuperseded: 'A newer change was asked for since this link was sent: use the link in the newest email.',
  addressTaken: 'That address is now used by another account, so the change was not made.',
  revertTitle: 'Restore your email address?',
  revertText: (oldEmail: string, newEmail: string) =>
    `The email address of your account was changed from ${oldEmail} to ${newEmail}. Restoring ${oldEmail} signs out every device and removes any two-step verification method added since the change was asked for; then you choose a new password.`,
  revert: 'Restore my address',
  revertUsed: 'This link was already used: the address was restored.',
  revertExpired: `This link has expired: it works for ${EMAIL_REVERT_DAYS} days. Contact support to get your account back.`,
  revertReplaced: 'The address of this account was restored another way since this link was sent.',
  // Mails.
  requestedSubject: 'A change of your email address was asked for',
  linkSubject: 'Confirm your new email address',
  triedSubject: 'Someone tried to use your email address',
  changedSubject: 'Your email address was changed',
  welcomeSubject: 'This is now the email address of your account',
  revertedSubject: 'Your email address was restored',
  removedSubject: 'This address was removed from an account',
} as const;
