import { createHash, randomBytes } from 'node:crypto';
import {
  EMAIL_CHANGE_LINK_HOURS,
  EMAIL_CHANGE_TEXTS as T,
  EMAIL_REVERT_DAYS,
  type EmailChangeStatus,
} from '@ums/contracts';
import { and, desc, eq, gt, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppConfig } from '../config/env.js';
import type { Database } from '../db/client.js';
import { accounts as accountsTable, emailChanges, userDetails } from '../db/schema/index.js';
import { emailChangeMail, type AlertContext } from '../mail/alerts.js';
import { enqueueMail, type Mail } from '../mail/outbox.js';
import type { AuthUser } from '../plugins/auth.js';
import { conflict, HttpError } from '../plugins/http-errors.js';
import type { KeyService } from '../secrets/key-service.js';
import type { AccountService } from './accounts.service.js';
import { attemptKey, type AttemptLimiter } from './attempt-limiter.js';
import type { FactorService } from './factors.js';
import { currentPasswordLimit, PASSWORD_MESSAGES } from './password-change.js';
import { hashPassword } from './password-hash.js';
import { forgotPasswordUrl, newResetToken, resetLinkUrl, voidResetLinks } from './password-reset.js';
import { emailConfirmedPage, emailConfirmPage, emailLinkInvalidPage, emailRevertPage } from './pages.js';
import { alertOrigin, originOf, recordSecurityEvent, type RequestOrigin } from './security-events.js';
import type { SecurityService } from './security.service.js';
import { endAccountSessions } from './sessions.js';

const MINUTE = 60 * 1000;
/** How often an email change may be asked for (or its link sent again), documented in the README's security section. */
export const EMAIL_CHANGE_LIMITS = {
  /** Links one account has sent, whatever the address. */
  account: { max: 5, windowMs: 60 * MINUTE },
  /** Mails sent to one address, whichever account asked: nobody's mailbox can be flooded through us. */
  address: { max: 3, windowMs: 60 * MINUTE },
} as const;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
const now = sql`clock_timestamp()`;

/** A change that still waits for its link: not confirmed, cancelled, superseded or expired. */
const pendingOf = (accountId: string) =>
  and(
    eq(emailChanges.accountId, accountId),
    isNull(emailChanges.confirmedAt),
    isNull(emailChanges.cancelledAt),
    isNull(emailChanges.supersededAt),
    gt(emailChanges.expiresAt, now),
  );

/** Why a link cannot do what it was sent for: the sentence its page shows. */
export type LinkRefusal = { refused: string; status: 409 | 410 };
const refused = (sentence: string, status: 409 | 410 = 410): LinkRefusal => ({ refused: sentence, status });

/** A unique index refused the write: the address was taken by another account a moment ago. */
const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

/**
 * Changing a member's email address on the embedded provider (issue 36). The member asks with the new address and
 * their current password (and a code when the account has a second factor); the new address gets a single-use link,
 * valid 24 hours and stored as a hash. Opening it makes the change in one transaction: the account's address (and so
 * the ID token's `email`, the member directory and the member's details), every other session ends, outstanding
 * password links stop working, and the old address gets a notice with a "This wasn't me" link that restores it for
 * 7 days, ending every session and asking for a new password. An address already used by another account gets the
 * same answer as any other (its owner is told someone tried); nothing reveals whose it is.
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
  const context = (to: string): AlertContext => ({
    company: config.web.company.name,
    publicUrl: config.publicUrl,
    forgotUrl: forgotPasswordUrl(config.auth.issuer),
    to,
  });
  const confirmUrl = (token: string) => `${config.auth.issuer}/email/confirm?token=${token}`;
  const revertUrl = (token: string) => `${config.auth.issuer}/email/revert?token=${token}`;

  async function statusOf(accountId: string): Promise<EmailChangeStatus> {
    const [account] = await db
      .select({ email: accountsTable.email, emailVerified: accountsTable.emailVerified })
      .from(accountsTable)
      .where(eq(accountsTable.accountId, accountId));
    if (!account) throw new HttpError(401, PASSWORD_MESSAGES.sessionExpired);
    const [pending] = await db
      .select({
        newEmail: emailChanges.newEmail,
        requestedAt: emailChanges.createdAt,
        expiresAt: emailChanges.expiresAt,
      })
      .from(emailChanges)
      .where(pendingOf(accountId))
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
   * Records the change, superseding any pending one, and mails the new address its link; or, when the address is
   * another account's, mails that account's owner that someone tried (the change row is kept all the same, with a
   * token nobody has, so the member's answer and status are the same either way).
   */
  async function issue(
    account: { accountId: string; email: string },
    newEmail: string,
    keptGrant: string | null,
    origin: RequestOrigin,
  ) {
    const owner = await accounts.findByEmail(newEmail);
    const token = newToken();
    const mail: Mail = owner
      ? emailChangeMail.tried(context(owner.email), alertOrigin(origin))
      : emailChangeMail.link(context(newEmail), alertOrigin(origin), confirmUrl(token));
    await db.transaction(async (tx) => {
      await tx.update(emailChanges).set({ supersededAt: now }).where(pendingOf(account.accountId));
      await tx.insert(emailChanges).values({
        accountId: account.accountId,
        oldEmail: account.email,
        newEmail,
        tokenHash: sha256(token),
        keptGrant,
        expiresAt: sql`clock_timestamp() + make_interval(hours => ${EMAIL_CHANGE_LINK_HOURS})`,
      });
      await recordSecurityEvent(tx, account.accountId, 'email-change-requested', origin);
      await enqueueMail(tx, mail, secrets);
    });
    security.kickMail();
  }

  /** The change a confirmation link names, if it can still be made; else why not. Locks the row in a transaction. */
  async function changeToConfirm(tx: Pick<Database, 'select'>, token: string, lock: boolean) {
    if (!TOKEN.test(token)) return refused(T.linkUnknown);
    const query = tx
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
      .where(eq(emailChanges.tokenHash, sha256(token)));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) return refused(T.linkUnknown);
    if (row.confirmedAt) return refused(T.linkUsed);
    if (row.cancelledAt) return refused(T.linkCancelled);
    if (row.supersededAt) return refused(T.linkSuperseded);
    if (row.expired) return refused(T.linkExpired);
    return row;
  }

  /** The change a "This wasn't me" link names, if it can still be undone; else why not. */
  async function changeToRevert(tx: Pick<Database, 'select'>, token: string, lock: boolean) {
    if (!TOKEN.test(token)) return refused(T.linkUnknown);
    const query = tx
      .select({
        id: emailChanges.id,
        accountId: emailChanges.accountId,
        oldEmail: emailChanges.oldEmail,
        newEmail: emailChanges.newEmail,
        revertedAt: emailChanges.revertedAt,
        supersededAt: emailChanges.supersededAt,
        expired: sql<boolean>`${emailChanges.revertExpiresAt} <= clock_timestamp()`,
      })
      .from(emailChanges)
      .where(eq(emailChanges.revertHash, sha256(token)));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) return refused(T.linkUnknown);
    if (row.revertedAt) return refused(T.revertUsed);
    if (row.supersededAt) return refused(T.revertReplaced);
    if (row.expired) return refused(T.revertExpired);
    return row;
  }

  /** Whether another account uses the address now. */
  async function usedByAnother(tx: Pick<Database, 'select'>, email: string, accountId: string) {
    const [row] = await tx
      .select({ id: accountsTable.accountId })
      .from(accountsTable)
      .where(and(sql`lower(${accountsTable.email}) = lower(${email})`, ne(accountsTable.accountId, accountId)));
    return row !== undefined;
  }

  /** Sets the account's address (verified: a link sent to it was opened), and the copy in the member's details. */
  async function setAddress(tx: Pick<Database, 'update'>, accountId: string, email: string, passwordHash?: string) {
    await tx
      .update(accountsTable)
      .set({ email, emailVerified: true, updatedAt: now, ...(passwordHash ? { passwordHash } : {}) })
      .where(eq(accountsTable.accountId, accountId));
    await tx.update(userDetails).set({ email, updatedAt: now }).where(eq(userDetails.subject, accountId));
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
      await issue(account, input.newEmail, user.grantId, origin);
      return statusOf(account.accountId);
    },

    /** Sends the pending change's link again (a new link: the earlier one stops working). */
    async resend(user: AuthUser, origin: RequestOrigin): Promise<EmailChangeStatus> {
      const current = await statusOf(user.subject);
      if (!current.pending) throw conflict(T.nothingPending);
      await reserveSending(user.subject, current.pending.newEmail);
      await issue({ accountId: user.subject, email: current.email }, current.pending.newEmail, user.grantId, origin);
      return statusOf(user.subject);
    },

    /** Cancels the pending change: its link stops working. */
    async cancel(user: AuthUser): Promise<EmailChangeStatus> {
      const cancelled = await db
        .update(emailChanges)
        .set({ cancelledAt: now })
        .where(pendingOf(user.subject))
        .returning({ id: emailChanges.id });
      if (cancelled.length === 0) throw conflict(T.nothingPending);
      return statusOf(user.subject);
    },

    /** What the confirmation page shows before the member confirms. */
    async inspectConfirmation(token: string) {
      return changeToConfirm(db, token, false);
    },

    /**
     * Makes the change the link names. Two confirmations of one link: the row lock lets one through, the other finds
     * it used. An address another account took meanwhile is refused (the unique index decides a race).
     */
    async confirm(token: string, origin: RequestOrigin): Promise<{ newEmail: string } | LinkRefusal> {
      const revert = newToken();
      try {
        const outcome = await db.transaction(async (tx) => {
          const change = await changeToConfirm(tx, token, true);
          if ('refused' in change) return change;
          if (await usedByAnother(tx, change.newEmail, change.accountId)) return refused(T.addressTaken, 409);
          const [account] = await tx
            .select({ email: accountsTable.email })
            .from(accountsTable)
            .where(eq(accountsTable.accountId, change.accountId))
            .for('update');
          if (!account) return refused(T.linkUnknown);
          await setAddress(tx, change.accountId, change.newEmail);
          await tx
            .update(emailChanges)
            .set({
              oldEmail: account.email,
              confirmedAt: now,
              revertHash: sha256(revert),
              revertExpiresAt: sql`clock_timestamp() + make_interval(days => ${EMAIL_REVERT_DAYS})`,
            })
            .where(eq(emailChanges.id, change.id));
          await endAccountSessions(tx, change.accountId, { keepGrant: change.keptGrant });
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
        if (isUniqueViolation(error)) return refused(T.addressTaken, 409);
        throw error;
      }
    },

    /** What the "This wasn't me" page shows before the member restores. */
    async inspectRevert(token: string) {
      return changeToRevert(db, token, false);
    },

    /**
     * Restores the old address: every session ends, the password stops working (whoever changed the address knew it),
     * pending changes and the account's other restore links stop working, and the answer is a password link's token
     * for the member to set a new one at once.
     */
    async revert(token: string, origin: RequestOrigin): Promise<{ resetToken: string } | LinkRefusal> {
      const unusable = await hashPassword(newToken());
      try {
        const outcome = await db.transaction(async (tx) => {
          const change = await changeToRevert(tx, token, true);
          if ('refused' in change) return change;
          if (await usedByAnother(tx, change.oldEmail, change.accountId)) return refused(T.addressTaken, 409);
          const [account] = await tx
            .select({ email: accountsTable.email })
            .from(accountsTable)
            .where(eq(accountsTable.accountId, change.accountId))
            .for('update');
          if (!account) return refused(T.linkUnknown);
          await setAddress(tx, change.accountId, change.oldEmail, unusable);
          await tx.update(emailChanges).set({ revertedAt: now }).where(eq(emailChanges.id, change.id));
          await tx.update(emailChanges).set({ supersededAt: now }).where(pendingOf(change.accountId));
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
          await endAccountSessions(tx, change.accountId);
          await voidResetLinks(tx, change.accountId);
          const resetToken = await newResetToken(tx, change.accountId);
          await recordSecurityEvent(tx, change.accountId, 'email-change-reverted', origin);
          const at = alertOrigin(origin);
          await enqueueMail(tx, emailChangeMail.reverted(context(change.oldEmail), at, account.email), secrets);
          if (account.email.toLowerCase() !== change.oldEmail.toLowerCase()) {
            await enqueueMail(tx, emailChangeMail.removed(context(account.email), at), secrets);
          }
          return { resetToken };
        });
        if ('resetToken' in outcome) security.kickMail();
        return outcome;
      } catch (error) {
        if (isUniqueViolation(error)) return refused(T.addressTaken, 409);
        throw error;
      }
    },

    /** The change waiting for confirmation, as the administrators' member page shows it. */
    async pendingOf(accountId: string): Promise<EmailChangeStatus['pending']> {
      return (await statusOf(accountId)).pending;
    },
  };
}
export type EmailChanges = ReturnType<typeof createEmailChanges>;

/**
 * The provider's pages the mails link to: confirming a new address (`/email/confirm?token=...`) and restoring the old
 * one (`/email/revert?token=...`). Each shows what it will do and does it only when its one button is pressed (a mail
 * scanner that opens links changes nothing); every answer is `no-store` and sends no Referer (the address carries the
 * token). They work signed out.
 */
export async function registerEmailChangePages(
  app: FastifyInstance,
  { changes, mount, publicUrl, issuer }: { changes: EmailChanges; mount: string; publicUrl: string; issuer: string },
) {
  const confirmPath = `${mount}/email/confirm`;
  const revertPath = `${mount}/email/revert`;
  const appUrl = `${publicUrl}/`;
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .status(status)
      .type('text/html')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send(body);
  const invalid = (reply: FastifyReply, refusal: LinkRefusal) =>
    html(reply, refusal.status, emailLinkInvalidPage(refusal.refused, appUrl));
  const tokenIn = (source: unknown) => String((source as Record<string, unknown> | undefined)?.['token'] ?? '');

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const route = { config: { policy: 'public' as const }, schema: { hide: true } };

    scope.get(confirmPath, route, async (request, reply) => {
      const token = tokenIn(request.query);
      const change = await changes.inspectConfirmation(token);
      if ('refused' in change) return invalid(reply, change);
      return html(reply, 200, emailConfirmPage(confirmPath, token, change.newEmail));
    });

    scope.post(confirmPath, route, async (request, reply) => {
      const outcome = await changes.confirm(tokenIn(request.body), originOf(request));
      if ('refused' in outcome) return invalid(reply, outcome);
      return html(reply, 200, emailConfirmedPage(outcome.newEmail, appUrl));
    });

    scope.get(revertPath, route, async (request, reply) => {
      const token = tokenIn(request.query);
      const change = await changes.inspectRevert(token);
      if ('refused' in change) return invalid(reply, change);
      return html(reply, 200, emailRevertPage(revertPath, token, change.oldEmail, change.newEmail));
    });

    scope.post(revertPath, route, async (request, reply) => {
      const outcome = await changes.revert(tokenIn(request.body), originOf(request));
      if ('refused' in outcome) return invalid(reply, outcome);
      // The member chooses a new password at once, through a link of their own (they hold the old mailbox).
      return reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .redirect(resetLinkUrl(issuer, outcome.resetToken), 303);
    });
  });
}
