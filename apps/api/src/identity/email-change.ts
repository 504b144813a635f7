import {
  EMAIL_CHANGE_LINK_HOURS,
  EMAIL_CHANGE_TEXTS as T,
  EMAIL_REVERT_DAYS,
  type EmailChangeStatus,
} from '@ums/contracts';
import { and, desc, eq, gt, gte, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { AppConfig } from '../config/env.js';
import type { Database } from '../db/client.js';
import {
  accounts as accountsTable,
  emailChanges,
  passkeys,
  recoveryCodes,
  totpFactors,
  userDetails,
} from '../db/schema/index.js';
import { sqlStateOf } from '../db/sql-state.js';
import { emailChangeMail } from '../mail/alerts.js';
import { enqueueMail } from '../mail/outbox.js';
import type { AuthUser } from '../plugins/auth.js';
import { conflict, HttpError, notFound } from '../plugins/http-errors.js';
import type { KeyService } from '../secrets/key-service.js';
import type { AccountService } from './accounts.service.js';
import { attemptKey, type AttemptLimiter } from './attempt-limiter.js';
import type { FactorService } from './factors.js';
import { LINK_TOKEN, linkTokenHash, newLinkToken } from './link-tokens.js';
import { currentPasswordLimit, PASSWORD_MESSAGES } from './password-change.js';
import { NO_PASSWORD } from './password-hash.js';
import { mailContext, newResetToken, voidResetLinks } from './password-reset.js';
import { alertOrigin, recordSecurityEvent, type RequestOrigin } from './security-events.js';
import type { SecurityService } from './security.service.js';
import { revokeAccount } from './revocations.js';
import { endAccountSessions } from './sessions.js';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

const MINUTE = 60 * 1000;
/** How often an email change may be asked for (or its link sent again), documented in the README's security section. */
export const EMAIL_CHANGE_LIMITS = {
  /** Links one account has sent, whatever the address. */
  account: { max: 5, windowMs: 60 * MINUTE },
  /** Mails sent to one address, whichever account asked: nobody's mailbox can be flooded through us. */
  address: { max: 3, windowMs: 60 * MINUTE },
} as const;

const now = sql`clock_timestamp()`;

/** A change that still waits for its link: not confirmed, cancelled, superseded or expired. */
const waitingChange = (accountId: string) =>
  and(
    eq(emailChanges.accountId, accountId),
    isNull(emailChanges.confirmedAt),
    isNull(emailChanges.cancelledAt),
    isNull(emailChanges.supersededAt),
    gt(emailChanges.expiresAt, now),
  );

/** Why a link cannot do what it was sent for: the sentence its page shows, and the status it answers with. */
export type LinkRefusal = { refused: string; status: 409 | 410 };
const refused = (sentence: string, status: 409 | 410 = 410): LinkRefusal => ({ refused: sentence, status });

/**
 * The account row, locked until the transaction ends: every write of an account's email changes takes it first, so
 * two of them (two requests, a confirmation and a restore) take turns instead of missing each other's rows.
 */
async function lockAccount(tx: Tx, accountId: string) {
  const [row] = await tx
    .select({ email: accountsTable.email })
    .from(accountsTable)
    .where(eq(accountsTable.accountId, accountId))
    .for('update');
  return row ?? null;
}

/** The change a confirmation link names, if it can still be made; else why not. */
async function changeToConfirm(q: Pick<Database, 'select'>, token: string) {
  if (!LINK_TOKEN.test(token)) return refused(T.linkUnknown);
  const [row] = await q
    .select({
      id: emailChanges.id,
      accountId: emailChanges.accountId,
      newEmail: emailChanges.newEmail,
      keptGrant: emailChanges.keptGrant,
      confirmedAt: emailChanges.confirmedAt,
      cancelledAt: emailChanges.cancelledAt,
      supersededAt: emailChanges.supersededAt,
      expired: sql<boolean>`${emailChanges.expiresAt} <= clock_timestamp()`,
    })
    .from(emailChanges)
    .where(eq(emailChanges.tokenHash, linkTokenHash(token)));
  if (!row) return refused(T.linkUnknown);
  if (row.confirmedAt) return refused(T.linkUsed);
  if (row.cancelledAt) return refused(T.linkCancelled);
  if (row.supersededAt) return refused(T.linkSuperseded);
  if (row.expired) return refused(T.linkExpired);
  return row;
}

/** The change a "This wasn't me" link names, if it can still be undone; else why not. */
async function changeToRevert(q: Pick<Database, 'select'>, token: string) {
  if (!LINK_TOKEN.test(token)) return refused(T.linkUnknown);
  const [row] = await q
    .select({
      id: emailChanges.id,
      accountId: emailChanges.accountId,
      oldEmail: emailChanges.oldEmail,
      newEmail: emailChanges.newEmail,
      requestedAt: emailChanges.createdAt,
      revertedAt: emailChanges.revertedAt,
      supersededAt: emailChanges.supersededAt,
      expired: sql<boolean>`${emailChanges.revertExpiresAt} <= clock_timestamp()`,
    })
    .from(emailChanges)
    .where(eq(emailChanges.revertHash, linkTokenHash(token)));
  if (!row) return refused(T.linkUnknown);
  if (row.revertedAt) return refused(T.revertUsed);
  if (row.supersededAt) return refused(T.revertReplaced);
  if (row.expired) return refused(T.revertExpired);
  return row;
}

/** The address as another account holds it, if another account uses it now. */
async function heldByAnother(q: Pick<Database, 'select'>, email: string, accountId: string) {
  const [row] = await q
    .select({ email: accountsTable.email })
    .from(accountsTable)
    .where(and(sql`lower(${accountsTable.email}) = lower(${email})`, ne(accountsTable.accountId, accountId)));
  return row?.email ?? null;
}

/** Sets the account's address (verified: a link sent to it was opened), and the copy in the member's details. */
async function setAddress(tx: Tx, accountId: string, email: string, passwordHash?: string) {
  await tx
    .update(accountsTable)
    .set({ email, emailVerified: true, updatedAt: now, ...(passwordHash ? { passwordHash } : {}) })
    .where(eq(accountsTable.accountId, accountId));
  await tx.update(userDetails).set({ email, updatedAt: now }).where(eq(userDetails.subject, accountId));
}

/**
 * The second factors added to the account since `since` (by whoever changed its address): removed, and counted.
 * A recovery code set counts as one method.
 */
async function removeFactorsSince(tx: Tx, accountId: string, since: Date): Promise<number> {
  const removedPasskeys = await tx
    .delete(passkeys)
    .where(and(eq(passkeys.accountId, accountId), gte(passkeys.createdAt, since)))
    .returning({ id: passkeys.id });
  const removedTotp = await tx
    .delete(totpFactors)
    .where(and(eq(totpFactors.accountId, accountId), gte(totpFactors.createdAt, since)))
    .returning({ id: totpFactors.accountId });
  const removedCodes = await tx
    .delete(recoveryCodes)
    .where(and(eq(recoveryCodes.accountId, accountId), gte(recoveryCodes.createdAt, since)))
    .returning({ id: recoveryCodes.accountId });
  return removedPasskeys.length + removedTotp.length + (removedCodes.length > 0 ? 1 : 0);
}

/** Changes long over go: a link expired a day ago and never used, a restore window closed a day ago (the sweep). */
export async function sweepEmailChanges(db: Pick<Database, 'delete'>): Promise<void> {
  const dayAgo = sql`clock_timestamp() - interval '1 day'`;
  await db
    .delete(emailChanges)
    .where(
      and(
        lt(emailChanges.expiresAt, dayAgo),
        or(isNull(emailChanges.revertExpiresAt), lt(emailChanges.revertExpiresAt, dayAgo)),
      ),
    );
}

/**
 * Changing a member's email address on the embedded provider (issue 36). The member asks with the new address and
 * their current password (and a code when the account has a second factor); the current address is told at once,
 * and the new one gets a single-use link, valid 24 hours and stored as a hash. Opening it makes the change in one
 * transaction: the account's address (and so the ID token's `email`, the member directory and the member's details),
 * every other session ends (the asking one renews its tokens), outstanding password links stop working, and the old
 * address gets a notice with a "This wasn't me" link that restores it for 7 days, ending every session, removing the
 * second factors added since the request and asking for a new password. An address already used by another account
 * gets the same answer as any other (its owner is told someone tried); nothing reveals whose it is.
 */
export function createEmailChanges({
  db,
  config,
  accounts,
  limiter,
  security,
  secrets,
  factors,
}: {
  db: Database;
  config: Pick<AppConfig, 'auth' | 'publicUrl' | 'web'>;
  accounts: AccountService;
  limiter: AttemptLimiter;
  security: SecurityService;
  /** Seals the mails with links until they are sent. */
  secrets: KeyService;
  /** An account with a second factor confirms with it too. */
  factors: FactorService | null;
}) {
  const context = (to: string) => mailContext(config, to);
  const confirmUrl = (token: string) => `${config.auth.issuer}/email/confirm?token=${token}`;
  const revertUrl = (token: string) => `${config.auth.issuer}/email/revert?token=${token}`;

  async function statusOf(accountId: string): Promise<EmailChangeStatus> {
    const [account] = await db
      .select({ email: accountsTable.email, emailVerified: accountsTable.emailVerified })
      .from(accountsTable)
      .where(eq(accountsTable.accountId, accountId));
    // A token whose subject is no account of ours (a deleted one, or another provider's).
    if (!account) throw notFound('The account');
    const [pending] = await db
      .select({
        newEmail: emailChanges.newEmail,
        requestedAt: emailChanges.createdAt,
        expiresAt: emailChanges.expiresAt,
      })
      .from(emailChanges)
      .where(waitingChange(accountId))
      .orderBy(desc(emailChanges.createdAt))
      .limit(1);
    return {
      ...account,
      pending: pending
        ? {
            newEmail: pending.newEmail,
            requestedAt: pending.requestedAt.toISOString(),
            expiresAt: pending.expiresAt.toISOString(),
          }
        : null,
    };
  }

  /** One more link for the account and the address, or 429: counted before anything is sent. */
  async function reserveSending(accountId: string, newEmail: string) {
    const reservation = await limiter.reserve([
      { key: attemptKey('email-change-account', accountId), ...EMAIL_CHANGE_LIMITS.account },
      { key: attemptKey('email-change-address', newEmail.toLowerCase()), ...EMAIL_CHANGE_LIMITS.address },
    ]);
    if (!reservation.reserved) throw new HttpError(429, T.tooMany);
  }

  /**
   * Records the change, superseding the one waiting (so only the newest link works), and mails the new address its
   * link; or, when the address is another account's, mails that account's owner that someone tried (the change is
   * recorded all the same, with a token nobody has, so the member's answer and status are the same either way). A
   * new request tells the current address; a resend keeps the session the request was made from.
   */
  async function issue(
    accountId: string,
    newEmail: string,
    origin: RequestOrigin,
    asked: { by: 'request'; grant: string | null } | { by: 'resend' },
  ) {
    const token = newLinkToken();
    const at = alertOrigin(origin);
    await db.transaction(async (tx) => {
      const account = await lockAccount(tx, accountId);
      if (!account) throw notFound('The account');
      const superseded = await tx
        .update(emailChanges)
        .set({ supersededAt: now })
        .where(waitingChange(accountId))
        .returning({ keptGrant: emailChanges.keptGrant });
      if (asked.by === 'resend' && superseded.length === 0) throw conflict(T.nothingPending);
      const keptGrant = asked.by === 'request' ? asked.grant : (superseded[0]?.keptGrant ?? null);
      await tx.insert(emailChanges).values({
        accountId,
        oldEmail: account.email,
        newEmail,
        tokenHash: linkTokenHash(token),
        keptGrant,
        expiresAt: sql`clock_timestamp() + make_interval(hours => ${EMAIL_CHANGE_LINK_HOURS})`,
      });
      await recordSecurityEvent(tx, accountId, 'email-change-requested', origin);
      const owner = await heldByAnother(tx, newEmail, accountId);
      await enqueueMail(
        tx,
        owner
          ? emailChangeMail.tried(context(owner), at)
          : emailChangeMail.link(context(newEmail), at, confirmUrl(token)),
        secrets,
      );
      if (asked.by === 'request') {
        await enqueueMail(tx, emailChangeMail.requested(context(account.email), at, newEmail), secrets);
      }
    });
    security.kickMail();
  }

  return {
    /** The caller's address and the change waiting for its link, if any. */
    status: (user: AuthUser) => statusOf(user.subject),

    /**
     * Asks for a change: the same address as now is refused, then the current password (counted with the password
     * change's attempts) and the second factor are checked, then the sending limits; the answer is the new status.
     */
    async request(
      user: AuthUser,
      input: { newEmail: string; password: string; code?: string | undefined },
      origin: RequestOrigin,
    ): Promise<EmailChangeStatus> {
      const current = await statusOf(user.subject);
      if (input.newEmail.toLowerCase() === current.email.toLowerCase()) {
        throw new HttpError(400, T.sameAddress, { newEmail: [T.sameAddress] });
      }
      const attempt = await limiter.reserve([currentPasswordLimit('password', user.subject)]);
      if (!attempt.reserved) throw new HttpError(429, PASSWORD_MESSAGES.tooMany);
      const account = await accounts.confirmPassword(user.subject, input.password);
      if (!account) throw new HttpError(400, T.wrongPassword, { password: [T.wrongPassword] });
      await factors?.confirmWithSecondFactor(account, input.code, origin);
      await limiter.release(attempt);
      await reserveSending(account.accountId, input.newEmail);
      await issue(account.accountId, input.newEmail, origin, { by: 'request', grant: user.grantId });
      return statusOf(account.accountId);
    },

    /** Sends the waiting change's link again: a new link, the earlier one stops working. */
    async resend(user: AuthUser, origin: RequestOrigin): Promise<EmailChangeStatus> {
      const current = await statusOf(user.subject);
      if (!current.pending) throw conflict(T.nothingPending);
      await reserveSending(user.subject, current.pending.newEmail);
      await issue(user.subject, current.pending.newEmail, origin, { by: 'resend' });
      return statusOf(user.subject);
    },

    /** Cancels the waiting change: its link stops working. */
    async cancel(user: AuthUser): Promise<EmailChangeStatus> {
      await db.transaction(async (tx) => {
        if (!(await lockAccount(tx, user.subject))) throw notFound('The account');
        const cancelled = await tx
          .update(emailChanges)
          .set({ cancelledAt: now })
          .where(waitingChange(user.subject))
          .returning({ id: emailChanges.id });
        if (cancelled.length === 0) throw conflict(T.nothingPending);
      });
      return statusOf(user.subject);
    },

    /** What the confirmation page shows before the member confirms. */
    inspectConfirmation: (token: string) => changeToConfirm(db, token),

    /**
     * Makes the change the link names. Two confirmations of one link take turns on the account's row: one goes
     * through, the other finds the link used. An address another account took meanwhile is refused, even when the
     * two changes race each other (the unique index on the address decides).
     */
    async confirm(token: string, origin: RequestOrigin): Promise<{ newEmail: string } | LinkRefusal> {
      const found = await changeToConfirm(db, token);
      if ('refused' in found) return found;
      const revert = newLinkToken();
      try {
        const outcome = await db.transaction(async (tx) => {
          const account = await lockAccount(tx, found.accountId);
          if (!account) return refused(T.linkUnknown);
          const change = await changeToConfirm(tx, token);
          if ('refused' in change) return change;
          if (await heldByAnother(tx, change.newEmail, change.accountId)) return refused(T.addressTaken, 409);
          await setAddress(tx, change.accountId, change.newEmail);
          await tx
            .update(emailChanges)
            .set({
              oldEmail: account.email,
              confirmedAt: now,
              revertHash: linkTokenHash(revert),
              revertExpiresAt: sql`clock_timestamp() + make_interval(days => ${EMAIL_REVERT_DAYS})`,
            })
            .where(eq(emailChanges.id, change.id));
          await tx.update(emailChanges).set({ supersededAt: now }).where(waitingChange(change.accountId));
          await endAccountSessions(tx, change.accountId, { keepGrant: change.keptGrant });
          // The asking session goes on, but its access tokens carry the old address: they stop working too, and the
          // tokens it renews with its refresh token carry the new one (and the mark of this revocation).
          await revokeAccount(tx, change.accountId);
          await voidResetLinks(tx, change.accountId);
          await recordSecurityEvent(tx, change.accountId, 'email-changed', origin);
          const at = alertOrigin(origin);
          const moved = { oldEmail: account.email, newEmail: change.newEmail };
          await enqueueMail(tx, emailChangeMail.changed(context(account.email), at, moved, revertUrl(revert)), secrets);
          await enqueueMail(tx, emailChangeMail.welcome(context(change.newEmail), at), secrets);
          return { newEmail: change.newEmail };
        });
        if ('newEmail' in outcome) security.kickMail();
        return outcome;
      } catch (error) {
        if (sqlStateOf(error) === '23505') return refused(T.addressTaken, 409);
        throw error;
      }
    },

    /** What the "This wasn't me" page shows before the member restores. */
    inspectRevert: (token: string) => changeToRevert(db, token),

    /**
     * Restores the old address: every session ends, the password stops working (whoever changed the address knew
     * it), second factors added since the change was asked for go, waiting changes and the account's other restore
     * links stop working, and the answer is a password link's token for the member to set a new one at once.
     */
    async revert(token: string, origin: RequestOrigin): Promise<{ resetToken: string } | LinkRefusal> {
      const found = await changeToRevert(db, token);
      if ('refused' in found) return found;
      try {
        const outcome = await db.transaction(async (tx) => {
          const account = await lockAccount(tx, found.accountId);
          if (!account) return refused(T.linkUnknown);
          const change = await changeToRevert(tx, token);
          if ('refused' in change) return change;
          if (await heldByAnother(tx, change.oldEmail, change.accountId)) return refused(T.addressTaken, 409);
          await setAddress(tx, change.accountId, change.oldEmail, NO_PASSWORD);
          await tx.update(emailChanges).set({ revertedAt: now }).where(eq(emailChanges.id, change.id));
          await tx.update(emailChanges).set({ supersededAt: now }).where(waitingChange(change.accountId));
          await tx
            .update(emailChanges)
            .set({ supersededAt: now })
            .where(
              and(
                eq(emailChanges.accountId, change.accountId),
                ne(emailChanges.id, change.id),
                isNotNull(emailChanges.revertHash),
                isNull(emailChanges.revertedAt),
              ),
            );
          const factorsRemoved = await removeFactorsSince(tx, change.accountId, change.requestedAt);
          await endAccountSessions(tx, change.accountId);
          await voidResetLinks(tx, change.accountId);
          const resetToken = await newResetToken(tx, change.accountId);
          await recordSecurityEvent(tx, change.accountId, 'email-change-reverted', origin);
          if (factorsRemoved > 0) await recordSecurityEvent(tx, change.accountId, 'factor-removed', origin);
          const at = alertOrigin(origin);
          const removed = { email: account.email, factors: factorsRemoved };
          await enqueueMail(tx, emailChangeMail.reverted(context(change.oldEmail), at, removed), secrets);
          if (account.email.toLowerCase() !== change.oldEmail.toLowerCase()) {
            await enqueueMail(tx, emailChangeMail.removed(context(account.email), at), secrets);
          }
          return { resetToken };
        });
        if ('resetToken' in outcome) security.kickMail();
        return outcome;
      } catch (error) {
        if (sqlStateOf(error) === '23505') return refused(T.addressTaken, 409);
        throw error;
      }
    },

    /** The change waiting for confirmation, as the administrators' member page shows it. */
    async waitingFor(accountId: string): Promise<EmailChangeStatus['pending']> {
      return (await statusOf(accountId)).pending;
    },
  };
}
export type EmailChanges = ReturnType<typeof createEmailChanges>;
