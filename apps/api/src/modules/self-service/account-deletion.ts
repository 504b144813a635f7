import { ACCOUNT_DELETION_TEXTS } from '@ums/contracts';
import { sql } from 'drizzle-orm';
import type { AppConfig } from '../../config/env.js';
import type { Database } from '../../db/client.js';
import { createAttemptLimiter } from '../../identity/attempt-limiter.js';
import { createAccountService } from '../../identity/accounts.service.js';
import { currentPasswordLimit, PASSWORD_MESSAGES } from '../../identity/password-change.js';
import { revokeAccount } from '../../identity/revocations.js';
import { alertOrigin, type RequestOrigin } from '../../identity/security-events.js';
import { endAccountSessions } from '../../identity/sessions.js';
import { accountDeletionMail } from '../../mail/alerts.js';
import { enqueueMail } from '../../mail/outbox.js';
import type { AuthUser } from '../../plugins/auth.js';
import { conflict, HttpError } from '../../plugins/http-errors.js';
import { appendAudit, SYSTEM_ACTOR } from '../audit/audit.js';
import type { FactorService } from '../../identity/factors.js';
import type { KeyService } from '../../secrets/key-service.js';

type Executor = Pick<Database, 'execute'>;

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
    tx: Executor,
    subject: string,
    kind: 'scheduled' | 'cancelled',
    origin: RequestOrigin,
    deleteAfter: Date,
  ) {
    const { rows } = await tx.execute<{ email: string }>(
      sql`select email from accounts where account_id::text = ${subject}`,
    );
    const row = rows[0];
    if (!row) return;
    const context = {
      company: config.web.company.name,
      publicUrl: config.publicUrl,
      forgotUrl: null,
      to: row.email,
    };
    await enqueueMail(tx, accountDeletionMail(kind, context, alertOrigin(origin), deleteAfter), secrets);
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
      const deleteAfter = await db.transaction(async (tx) => {
        const { rows } = await tx.execute<{ delete_after: Date }>(sql`
          insert into account_deletions (subject, delete_after)
          values (${account.accountId}, clock_timestamp() + make_interval(days => ${config.deletionGraceDays}))
          on conflict (subject) do nothing
          returning delete_after`);
        if (!rows[0]) throw conflict(ACCOUNT_DELETION_TEXTS.alreadyScheduled);
        await endAccountSessions(tx, account.accountId);
        await queueMail(tx, account.accountId, 'scheduled', origin, new Date(rows[0].delete_after));
        return rows[0].delete_after;
      });
      await attempts.release(reservation);
      kickMail();
      return { deleteAfter: new Date(deleteAfter).toISOString() };
    },

    /** When the account is to be deleted, if its member closed it. */
    async pending(subject: string): Promise<Date | null> {
      const { rows } = await db.execute<{ delete_after: Date }>(
        sql`select delete_after from account_deletions where subject = ${subject}`,
      );
      return rows[0] ? new Date(rows[0].delete_after) : null;
    },

    /** The member signed in during the grace period and kept the account. False when nothing was pending. */
    async cancel(subject: string, origin: RequestOrigin): Promise<boolean> {
      // Nothing pending (a second click, or the purge came first) cancels nothing and mails nothing.
      const cancelled = await db.transaction(async (tx) => {
        const { rows } = await tx.execute<{ delete_after: Date }>(
          sql`delete from account_deletions where subject = ${subject} returning delete_after`,
        );
        if (!rows[0]) return false;
        await queueMail(tx, subject, 'cancelled', origin, new Date(rows[0].delete_after));
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
          const { rows } = await tx.execute<{ subject: string; requested_at: Date; delete_after: Date }>(sql`
            select subject, requested_at, delete_after from account_deletions
            where delete_after <= ${now.toISOString()}::timestamptz
            order by delete_after
            limit 1
            for update skip locked`);
          const due = rows[0];
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
  tx: Executor,
  due: { subject: string; requested_at: Date; delete_after: Date },
): Promise<number> {
  const subject = due.subject;
  const { rows: mail } = await tx.execute<{ email: string }>(
    sql`select email from accounts where account_id::text = ${subject}`,
  );
  // Orders stay for the books, each under its own random subject: nothing links them to the member or each other.
  const { rows: orders } = await tx.execute(sql`
    update orders set subject = 'deleted:' || gen_random_uuid() where subject = ${subject} returning 1`);
  const { rows: subscriptions } = await tx.execute(
    sql`delete from subscriptions where subject = ${subject} returning 1`,
  );
  await tx.execute(sql`delete from user_details where subject = ${subject}`);
  await tx.execute(sql`delete from security_events where subject = ${subject}`);
  await tx.execute(sql`delete from session_details where account_id = ${subject}`);
  await tx.execute(sql`delete from known_devices where account_id = ${subject}`);
  await tx.execute(sql`delete from oidc_payloads where payload->>'accountId' = ${subject}`);
  if (mail[0]) await tx.execute(sql`delete from mail_outbox where lower(recipient) = lower(${mail[0].email})`);
  await tx.execute(sql`delete from accounts where account_id::text = ${subject}`);
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
      requestedAt: new Date(due.requested_at).toISOString(),
      deleteAfter: new Date(due.delete_after).toISOString(),
      ordersAnonymised: orders.length,
      subscriptionsDeleted: subscriptions.length,
    },
    after: null,
  });
  await tx.execute(sql`delete from account_deletions where subject = ${subject}`);
  return orders.length;
}
