/** Closing an account (free of any schema library: the browser imports it). */

/** A closed account is deleted this many days after the member asked (`DELETION_GRACE_DAYS` changes it). */
export const DELETION_GRACE_DAYS = 30;

/** Closing the account: the section's action, its dialog, the provider's page during the grace period, the mail. */
export const ACCOUNT_DELETION_TEXTS = {
  action: 'Close my account',
  title: 'Close your account?',
  explain: (days: number) =>
    `Your account and personal information will be deleted in ${days} days. You will be signed out everywhere now. ` +
    'Sign in before then to keep your account. Orders are kept without your name or contact details.',
  password: 'Current password',
  confirm: 'Close account',
  cancel: 'Cancel',
  scheduled: 'Account deletion scheduled',
  wrongPassword: 'Current password is incorrect.',
  managedElsewhere: 'Your account is managed by your identity provider: close it there.',
  alreadyScheduled: 'Your account is already scheduled for deletion.',
  lastAdmin: 'You are the last administrator: give the Admin group to someone else before you close your account.',
  pageTitle: 'Your account is scheduled for deletion',
  pageText: (day: string) =>
    `Your account and personal information will be deleted on ${day}. Keep your account to cancel the deletion.`,
  keep: 'Keep my account',
  leave: 'Continue with deletion',
  leftTitle: 'Your account will be deleted',
  leftText: (day: string) => `Your account will be deleted on ${day}. You can sign in before then to keep it.`,
  cancelled: 'Account deletion cancelled',
  mailSubject: 'Your account will be deleted',
  cancelledMailSubject: 'Your account will not be deleted',
} as const;
