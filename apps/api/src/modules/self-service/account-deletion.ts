import { ACCOUNT_DELETION_TEXTS } from '@ums/contracts';
import { eq, lte, sql } from 'drizzle-orm';
import type { AppConfig } from '../../config/env.js';
import { namedStatement, type Database } from '../../db/client.js';
import {
  accountDeletions,
  accounts,
  knownDevices,
  mailOutbox,
  oidcPayloads,
  orders,
  securityEvents,
  sessionDetails,
  subscriptions,
  userDetails,
} from '../../db/schema/index.js';
import { createAttemptLimiter } from '../../identity/attempt-limiter.js';
import { anyAdmin, createAccountService, lockGroupChanges } from '../../identity/accounts.service.js';
import { currentPasswordLimit, PASSWORD_MESSAGES } from '../../identity/password-change.js';
import { mailContext } from '../../identity/password-reset.js';
import { revokeAccount } from '../../identity/revocations.js';
import { alertOrigin, type RequestOrigin } from '../../identity/security-events.js';
import { endAccountSessions } from '../../identity/sessions.js';
import { accountDeletionMail } from '../../mail/alerts.js';
import { enqueueMail } from '../../mail/outbox.js';
import type { AuthUser } from '../../plugins/auth.js';
import { conflict, HttpError } from '../../plugins/http-errors.js';
import { appendAudit, SYSTEM_ACTOR, type Queryable } from '../audit/audit.js';
import type { FactorService } from '../../identity/factors.js';
import type { KeyService } from '../../secrets/key-service.js';
import { isAccountId } from '../../identity/account-id.js';

/** The account a token subject names (a subject that is no account id names none). */
const accountNamed = (subject: string) => isAccountId(accounts.accountId, subject);

/** The email of the account a subject names, if it has one. */
async function accountEmail(tx: Queryable, subject: string): Promise<string | undefined> {
  const [row] = await tx.select({ email: accounts.email }).from(accounts).where(accountNamed(subject));
  return row?.email;
}

/** Asked of every sign-in (is this account closing?): a named prepared statement (decision 041). */
const deletionPending = namedStatement<{ deleteAfter: Date }>(
  'account_deletion_pending',
  sql`select ${accountDeletions.deleteAfter} as "deleteAfter" from ${accountDeletions}
    where ${accountDeletions.subject} = ${sql.placeholder('subject')}`,
);

/** The purge runs once a day on every process (and at start); concurrent runs skip each other's rows. */
export const PURGE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** What the purge did to one closed account: counts only, never anything that names the member. */
export interface PurgedAccount {
  subject: string;
  ordersAnonymised: number;
}

/**
 * Closing an account (GDPR article 17): the member asks with their password, every session ends and the account is
 * deleted after a grace period in which signing in again offers to keep it. The purge then deletes the account, its
 * personal information, subscriptions, sessions and activity, and keeps the orders under a random subject that
 * names nobody, with an `account-deleted` audit entry, all in one transaction per account.
 */
export function createAccountDeletion({
  db,
  config,
  secrets,
  kickMail = () => undefined,
  factors = null,
}: {
  db: Database;
  config: Pick<AppConfig, 'auth' | 'publicUrl' | 'web' | 'deletionGraceDays'>;
  /** Seals the alerts' bodies in the outbox. */
  secrets: KeyService;
  kickMail?: () => void;
  /** The embedded provider's second factors: closing an account that has one asks for it too. */
  factors?: FactorService | null;
}) {
  const accounts = createAccountService({ db });
  const attempts = createAttemptLimiter({ db });

  /** The alert of a closed or kept account, naming the day it is (or was to be) deleted. */
  async function queueMail(
    tx: Queryable,
    subject: string,
    kind: 'scheduled' | 'cancelled',
    origin: RequestOrigin,
    deleteAfter: Date,
  ) {
    const email = await accountEmail(tx, subject);
    if (email === undefined) return;
    const mail = accountDeletionMail(kind, mailContext(config, email), alertOrigin(origin), deleteAfter);
    await enqueueMail(tx, mail, secrets);
  }

  return {
    /**
     * Schedules the caller's account for deletion after the grace period, once their password is confirmed (the
     * attempt is counted first, as for a password change), and ends every session of the account, this one too.
     */
    async schedule(
      user: AuthUser,
      confirmation: { password: string; code?: string | undefined },
      origin: RequestOrigin,
    ): Promise<{ deleteAfter: string }> {
      if (!config.auth.embedded) throw new HttpError(501, ACCOUNT_DELETION_TEXTS.managedElsewhere);
      const reservation = await attempts.reserve([currentPasswordLimit('deletion', user.subject)]);
      if (!reservation.reserved) throw new HttpError(429, PASSWORD_MESSAGES.tooMany);
      const account = await accounts.confirmPassword(user.subject, confirmation.password);
      if (!account) {
        throw new HttpError(400, ACCOUNT_DELETION_TEXTS.wrongPassword, {
          password: [ACCOUNT_DELETION_TEXTS.wrongPassword],
        });
      }
      await factors?.confirmWithSecondFactor(account, confirmation.code, origin);
      const adminGroup = config.auth.roleGroups.Admin;
      const administrator = account.groups.includes(adminGroup);
      const deleteAfter = await db.transaction(async (tx) => {
        // An administrator's closing is a group change: it takes its turn with the others (two administrators closing
        // at once cannot each leave the other the last), and the last one staying cannot close.
        if (administrator) await lockGroupChanges(tx);
        const [scheduled] = await tx
          .insert(accountDeletions)
          .values({
            subject: account.accountId,
            deleteAfter: sql`clock_timestamp() + make_interval(days => ${config.deletionGraceDays})`,
          })
          .onConflictDoNothing({ target: accountDeletions.subject })
          .returning({ deleteAfter: accountDeletions.deleteAfter });
        if (!scheduled) throw conflict(ACCOUNT_DELETION_TEXTS.alreadyScheduled);
        if (administrator && !(await anyAdmin(tx, adminGroup))) {
          throw conflict(ACCOUNT_DELETION_TEXTS.lastAdmin);
        }
        await endAccountSessions(tx, account.accountId);
        await queueMail(tx, account.accountId, 'scheduled', origin, scheduled.deleteAfter);
        return scheduled.deleteAfter;
      });
      await attempts.release(reservation);
      kickMail();
      return { deleteAfter: deleteAfter.toISOString() };
    },

    /** When the account is to be deleted, if its member closed it. */
    async pending(subject: string): Promise<Date | null> {
      const [row] = await deletionPending(db, { subject });
      return row?.deleteAfter ?? null;
    },

    /** The member signed in during the grace period and kept the account. False when nothing was pending. */
    async cancel(subject: string, origin: RequestOrigin): Promise<boolean> {
      // Nothing pending (a second click, or the purge came first) cancels nothing and mails nothing.
      const cancelled = await db.transaction(async (tx) => {
        const [removed] = await tx
          .delete(accountDeletions)
          .where(eq(accountDeletions.subject, subject))
          .returning({ deleteAfter: accountDeletions.deleteAfter });
        if (!removed) return false;
        await queueMail(tx, subject, 'cancelled', origin, removed.deleteAfter);
        return true;
      });
      if (cancelled) kickMail();
      return cancelled;
    },

    /** Deletes every account whose grace period is over; answers what it purged. Safe to run on many processes. */
    async purgeDue(now: Date = new Date()): Promise<PurgedAccount[]> {
      const purged: PurgedAccount[] = [];
      for (;;) {
        const done = await db.transaction(async (tx) => {
          const [due] = await tx
            .select({
              subject: accountDeletions.subject,
              requestedAt: accountDeletions.requestedAt,
              deleteAfter: accountDeletions.deleteAfter,
            })
            .from(accountDeletions)
            .where(lte(accountDeletions.deleteAfter, now))
            .orderBy(accountDeletions.deleteAfter)
            .limit(1)
            .for('update', { skipLocked: true });
          if (!due) return null;
          return { subject: due.subject, ordersAnonymised: await purgeAccount(tx, due) };
        });
        if (!done) return purged;
        purged.push(done);
      }
    },
  };
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>;

/** One closed account's purge, in the caller's transaction. Answers how many orders were kept anonymised. */
async function purgeAccount(
  tx: Queryable,
  due: { subject: string; requestedAt: Date; deleteAfter: Date },
): Promise<number> {
  const subject = due.subject;
  const email = await accountEmail(tx, subject);
  // Orders stay for the books, each under its own random subject: nothing links them to the member or each other.
  const anonymised = await tx
    .update(orders)
    .set({ subject: sql`'deleted:' || gen_random_uuid()` })
    .where(eq(orders.subject, subject))
    .returning({ id: orders.orderId });
  const deletedSubscriptions = await tx
    .delete(subscriptions)
    .where(eq(subscriptions.subject, subject))
    .returning({ id: subscriptions.subscriptionId });
  await tx.delete(userDetails).where(eq(userDetails.subject, subject));
  await tx.delete(securityEvents).where(eq(securityEvents.subject, subject));
  await tx.delete(sessionDetails).where(eq(sessionDetails.accountId, subject));
  await tx.delete(knownDevices).where(eq(knownDevices.accountId, subject));
  await tx.delete(oidcPayloads).where(sql`${oidcPayloads.payload}->>'accountId' = ${subject}`);
  if (email !== undefined) {
    await tx.delete(mailOutbox).where(sql`lower(${mailOutbox.recipient}) = lower(${email})`);
  }
  await tx.delete(accounts).where(accountNamed(subject));
  // The trail keeps what was done to the account, no longer whose it was: its entries lose the email they were named
  // by (the one change the trail allows on them, once the account is gone; run as the trail's owner, migration 0019).
  await tx.execute(sql`select audit_scrub_closed_member(${subject})`);
  await revokeAccount(tx, subject);
  await appendAudit(tx, {
    actor: SYSTEM_ACTOR,
    action: 'account-deleted',
    entity: 'member',
    entityId: subject,
    before: {
      requestedAt: due.requestedAt.toISOString(),
      deleteAfter: due.deleteAfter.toISOString(),
      ordersAnonymised: anonymised.length,
      subscriptionsDeleted: deletedSubscriptions.length,
    },
    after: null,
  });
  await tx.delete(accountDeletions).where(eq(accountDeletions.subject, subject));
  return anonymised.length;
}
