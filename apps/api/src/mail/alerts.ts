import {
  ACCOUNT_DELETION_TEXTS,
  EMAIL_CHANGE_LINK_HOURS,
  EMAIL_CHANGE_TEXTS,
  EMAIL_REVERT_DAYS,
  PASSWORD_RESET_MINUTES,
  PASSWORD_RESET_TEXTS,
} from '@ums/contracts';
import type { Mail } from './outbox.js';

/** Where and how an action was taken, as the member is told it. */
export interface Origin {
  at: Date;
  browser: string;
  os: string;
  ipAddress: string | null;
}

export interface AlertContext {
  company: string;
  /** The app's public address: the alert links to the account's sections. */
  publicUrl: string;
  /** The embedded provider's "Forgot your password?" page; null when another provider keeps the passwords. */
  forgotUrl: string | null;
  to: string;
}

/**
 * Every mail opens the same way, without the name on the account: anyone signed in to it can set that name, and a
 * security mail must not carry words chosen by whoever may have taken the account over.
 */
export const MAIL_GREETING = 'Hello,';

/** The last words of a mail about the account's security, which the member cannot switch off. */
const SECURITY_FOOTER =
  'You receive this message because it concerns the security of your account; it cannot be switched off.';

/**
 * A mail in the shape every one of ours has: the greeting, the paragraphs given (a paragraph may hold a line break,
 * as a sentence and the link it introduces do; `false` leaves one out), the company's name, and for a mail about
 * the account's security the footer saying it cannot be switched off.
 */
function letter(
  context: AlertContext,
  subject: string,
  paragraphs: (string | false)[],
  options: { security?: boolean } = {},
): Mail {
  const body = [MAIL_GREETING, ...paragraphs.filter((p): p is string => p !== false), `— ${context.company}`];
  if (options.security) body.push(SECURITY_FOOTER);
  return { to: context.to, subject, text: body.join('\n\n') };
}

export type AlertKind =
  | 'password-changed'
  | 'new-device'
  | 'signed-out-everywhere'
  | 'factor-added'
  | 'factor-removed'
  | 'recovery-codes-regenerated'
  | 'recovery-code-used'
  | 'sign-in-methods-reset';

// One formatter each for the process: each new one leaves ICU's memory behind in the malloc heap (decision 034).
const ALERT_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const ALERT_TIME = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'UTC',
});

/** "22 November 2026 at 14:05 UTC": unambiguous in every country. */
export function alertTime(at: Date): string {
  return `${ALERT_DAY.format(at)} at ${ALERT_TIME.format(at)} UTC`;
}

const where = (origin: Origin) =>
  `${origin.browser} on ${origin.os}${origin.ipAddress ? `, from the address ${origin.ipAddress}` : ''}`;

export const ALERT_SUBJECTS: Record<AlertKind, string> = {
  'password-changed': 'Your password was changed',
  'new-device': 'New sign-in to your account',
  'signed-out-everywhere': 'Your other devices were signed out',
  'factor-added': 'A two-step verification method was added to your account',
  'factor-removed': 'A two-step verification method was removed from your account',
  'recovery-codes-regenerated': 'New recovery codes were made for your account',
  'recovery-code-used': 'A recovery code was used to sign in to your account',
  'sign-in-methods-reset': 'The sign-in methods of your account were reset',
};

/** A security alert: what happened, when, from where, and what to do if it was not the member. */
export function securityAlert(kind: AlertKind, context: AlertContext, origin: Origin): Mail {
  const security = `${context.publicUrl}/#security`;
  const password = `${context.publicUrl}/#login-details`;
  const what: Record<AlertKind, string> = {
    'password-changed': `The password of your ${context.company} account (${context.to}) was changed on ${alertTime(origin.at)}, using ${where(origin)}. Every other device signed in to your account was signed out.`,
    'new-device': `Your ${context.company} account (${context.to}) was signed in to from a device we have not seen before, on ${alertTime(origin.at)}: ${where(origin)}.`,
    'signed-out-everywhere': `Every device signed in to your ${context.company} account (${context.to}) but one was signed out on ${alertTime(origin.at)}, at the request of ${where(origin)}.`,
    'factor-added': `A two-step verification method (an authenticator app or a passkey) was added to your ${context.company} account (${context.to}) on ${alertTime(origin.at)}, using ${where(origin)}.`,
    'factor-removed': `A two-step verification method (an authenticator app or a passkey) was removed from your ${context.company} account (${context.to}) on ${alertTime(origin.at)}, using ${where(origin)}.`,
    'recovery-codes-regenerated': `New recovery codes were made for your ${context.company} account (${context.to}) on ${alertTime(origin.at)}, using ${where(origin)}. The earlier codes no longer work.`,
    'recovery-code-used': `A recovery code was used to sign in to your ${context.company} account (${context.to}) on ${alertTime(origin.at)}: ${where(origin)}. That code no longer works.`,
    'sign-in-methods-reset': `${context.company} support reset the sign-in methods of your account (${context.to}) on ${alertTime(origin.at)}: its authenticator app, passkeys and recovery codes were removed and every device was signed out. Sign in with your password and set up two-step verification again in the Security section (${security}).`,
  };
  const changedIt = `If it was not you, someone else may have your password: change it now (${password}), then check your sign-in methods and devices in the Security section (${security}).`;
  const ifNotYou: Record<AlertKind, string> = {
    'password-changed': context.forgotUrl
      ? `If you did not change it, someone else may have your account: set a new password at once (${context.forgotUrl}), which signs out every device, and tell ${context.company} support. Do not reply to this message.`
      : `If you did not change it, someone else may have your account: contact ${context.company} support at once, and do not reply to this message.`,
    'new-device': `If it was not you, change your password now (${password}), then sign out the devices you do not know in the Security section (${security}).`,
    'signed-out-everywhere': `If it was not you, change your password now (${password}) and check the devices in the Security section (${security}).`,
    'factor-added': changedIt,
    'factor-removed': changedIt,
    'recovery-codes-regenerated': changedIt,
    'recovery-code-used': changedIt,
    'sign-in-methods-reset': `If you did not ask ${context.company} support for this, change your password now (${password}) and tell support.`,
  };
  return letter(
    context,
    ALERT_SUBJECTS[kind],
    [what[kind], 'If this was you, there is nothing to do.', ifNotYou[kind]],
    {
      security: true,
    },
  );
}

/** The forgotten-password link: who asked, when and from where, and that ignoring it changes nothing. */
export function passwordResetMail(context: AlertContext, origin: Origin, link: string): Mail {
  return letter(context, PASSWORD_RESET_TEXTS.mailSubject, [
    `Someone asked to reset the password of your ${context.company} account (${context.to}) on ${alertTime(origin.at)}, using ${where(origin)}.`,
    `To choose a new password, open this link. It works once, within ${PASSWORD_RESET_MINUTES} minutes:\n${link}`,
    'Setting a new password signs out every device signed in to your account.',
    'If you did not ask, ignore this message: your password stays as it is, and the link is of no use to anyone without access to your email.',
  ]);
}

/** The account was closed (deletion scheduled), or kept after all (deletion cancelled). */
export function accountDeletionMail(
  kind: 'scheduled' | 'cancelled',
  context: AlertContext,
  origin: Origin,
  deleteAfter: Date,
): Mail {
  const day = alertTime(deleteAfter).replace(/ at .*/, '');
  return kind === 'scheduled'
    ? letter(context, ACCOUNT_DELETION_TEXTS.mailSubject, [
        `Your ${context.company} account (${context.to}) was closed on ${alertTime(origin.at)}, using ${where(origin)}. Every device signed in to it was signed out.`,
        `Your account and personal information will be deleted on ${day}. Orders are kept for our accounts, without your name or contact details.`,
        `Changed your mind? Sign in at ${context.publicUrl} before then and choose "${ACCOUNT_DELETION_TEXTS.keep}".`,
        `If you did not close your account, sign in at ${context.publicUrl}, keep your account and change your password.`,
      ])
    : letter(context, ACCOUNT_DELETION_TEXTS.cancelledMailSubject, [
        `The deletion of your ${context.company} account (${context.to}) was cancelled on ${alertTime(origin.at)}, using ${where(origin)}. Your account stays as it was.`,
        `If it was not you, change your password now (${context.publicUrl}/#login-details).`,
      ]);
}

/**
 * The mails of a change of email address (issue 36). The current address hears of the request at once (so its owner
 * can cancel it); the link goes to the new address. Mails to an address not shown to be the member's (the new one
 * before its link is opened, another account's, one taken off the account) say nothing of the member: not the other
 * address, not where the request came from.
 */
export const emailChangeMail = {
  /** To the current address when a change is asked for: what, when, from where, and how to stop it. */
  requested: (context: AlertContext, origin: Origin, newEmail: string): Mail =>
    letter(
      context,
      EMAIL_CHANGE_TEXTS.requestedSubject,
      [
        `Someone asked on ${alertTime(origin.at)}, using ${where(origin)}, to change the email address of your ${context.company} account (${context.to}) to ${newEmail}. Nothing changes unless the link we sent to that address is opened within ${EMAIL_CHANGE_LINK_HOURS} hours.`,
        'If this was you, there is nothing to do.',
        `If it was not you, someone knows your password: cancel the change in Login Details (${context.publicUrl}/#login-details) and change your password there.`,
      ],
      { security: true },
    ),

  /** To the new address: the single-use link that makes the change. */
  link: (context: AlertContext, origin: Origin, link: string): Mail =>
    letter(context, EMAIL_CHANGE_TEXTS.linkSubject, [
      `Someone asked on ${alertTime(origin.at)} to make ${context.to} the email address of a ${context.company} account.`,
      `To confirm, open this link. It works once, within ${EMAIL_CHANGE_LINK_HOURS} hours:\n${link}`,
      'Until it is opened, the account keeps its current address. If you did not ask, ignore this message: nothing changes.',
    ]),

  /** To an address that already belongs to an account: someone tried to move another account onto it. */
  tried: (context: AlertContext, origin: Origin): Mail =>
    letter(context, EMAIL_CHANGE_TEXTS.triedSubject, [
      `Someone asked on ${alertTime(origin.at)} to make ${context.to} the email address of another ${context.company} account. It is the address of your account, so nothing changed and it stays yours.`,
      `If it was you, sign in with this address at ${context.publicUrl}. Otherwise there is nothing to do.`,
    ]),

  /** To the old address once the change is made: what changed, and the link that takes the account back. */
  changed: (
    context: AlertContext,
    origin: Origin,
    change: { oldEmail: string; newEmail: string },
    revertLink: string,
  ): Mail =>
    letter(
      context,
      EMAIL_CHANGE_TEXTS.changedSubject,
      [
        `The email address of your ${context.company} account was changed from ${change.oldEmail} to ${change.newEmail} on ${alertTime(origin.at)}, using ${where(origin)}. Every other device signed in to your account was signed out.`,
        'If this was you, there is nothing to do.',
        `If it was not you, open this link within ${EMAIL_REVERT_DAYS} days: it restores ${change.oldEmail}, signs out every device, removes any two-step verification method added since the change was asked for, and asks you for a new password.\n${revertLink}`,
      ],
      { security: true },
    ),

  /** To the new address once the change is made. */
  welcome: (context: AlertContext, origin: Origin): Mail =>
    letter(context, EMAIL_CHANGE_TEXTS.welcomeSubject, [
      `${context.to} is the email address of your ${context.company} account since ${alertTime(origin.at)}. Sign in with it from now on; reset links and security alerts come here.`,
    ]),

  /** To the restored address: the account is back, and a new password is needed. */
  reverted: (context: AlertContext, origin: Origin, removed: { email: string; factors: number }): Mail =>
    letter(context, EMAIL_CHANGE_TEXTS.revertedSubject, [
      `${context.to} is again the email address of your ${context.company} account since ${alertTime(origin.at)}, using ${where(origin)}; ${removed.email} was removed from it. Every device was signed out and the old password no longer works.`,
      removed.factors > 0 &&
        `${removed.factors} two-step verification method(s) added since the change was asked for were removed.`,
      context.forgotUrl
        ? `If you did not set a new password yet, ask for a link at ${context.forgotUrl}. Then check your sign-in methods in the Security section (${context.publicUrl}/#security).`
        : `Then check your sign-in methods in the Security section (${context.publicUrl}/#security).`,
    ]),

  /** To the address taken off the account by a restore. */
  removed: (context: AlertContext, origin: Origin): Mail =>
    letter(context, EMAIL_CHANGE_TEXTS.removedSubject, [
      `${context.to} is no longer the email address of a ${context.company} account since ${alertTime(origin.at)}: its owner restored their previous address. You can no longer sign in with this address.`,
    ]),
};

export const ROLES_MAIL_SUBJECT = 'Your access to the admin console changed';

/** Who changed a member's console roles: an administrator in the console, or an operator with the command line. */
export type RolesChangedBy = 'administrator' | 'operator';

/**
 * A member's console roles changed (granted or removed by an administrator, a change to them reverted, or an
 * operator's `users grant` or `revoke`): which they had and which they have now, and whom to ask when it is a surprise.
 * Roles are the configured groups' names.
 */
export function consoleRolesMail(
  context: AlertContext,
  before: string[],
  after: string[],
  at: Date,
  by: RolesChangedBy,
): Mail {
  const list = (roles: string[]) => (roles.length > 0 ? roles.join(', ') : 'none');
  const account = `your ${context.company} account (${context.to})`;
  return letter(
    context,
    ROLES_MAIL_SUBJECT,
    [
      by === 'administrator'
        ? `An administrator changed the roles of ${account} in the admin console on ${alertTime(at)}.`
        : `An operator changed the roles of ${account} at the server's command line on ${alertTime(at)}.`,
      `Your roles were: ${list(before)}.\nYour roles are now: ${list(after)}.`,
      after.length > 0
        ? 'The change holds at once on every device signed in to your account.'
        : 'You can no longer open the admin console, on any device.',
      `If you did not expect this, ask your ${context.company} administrator.`,
    ],
    { security: true },
  );
}
