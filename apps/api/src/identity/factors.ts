import { createHash, randomInt } from 'node:crypto';
import {
  FACTOR_MESSAGES,
  RECOVERY_CODE_COUNT,
  TOTP_ISSUER,
  type SecurityFactors,
  type TotpSetup,
} from '@ums/contracts';
import { and, asc, count, eq, isNotNull, isNull, lt, sql, type SQLWrapper } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { namedStatement, type Database, type Transaction } from '../db/client.js';
import { passkeys, recoveryCodes, totpFactors, totpUsedSteps } from '../db/schema/index.js';
import { HttpError } from '../plugins/http-errors.js';
import type { KeyService } from '../secrets/key-service.js';
import { attemptKey, type AttemptLimiter, type Limit } from './attempt-limiter.js';
import type { RequestOrigin } from './security-events.js';
import type { SecurityService } from './security.service.js';

export type Executor = Pick<Database, 'execute' | 'select' | 'insert' | 'update' | 'delete'>;

/** A TOTP step is 30 seconds; a code is accepted one step either side of now (RFC 6238's recommended drift). */
const PERIOD_SECONDS = 30;
const WINDOW_STEPS = 1;
/** Second-factor attempts per account: reserved before a code is checked, like passwords. */
export const SECOND_FACTOR_LIMIT = { max: 5, windowMs: 15 * 60 * 1000 } as const;
/** Recovery codes: 10 characters from an alphabet without look-alikes, shown as two groups of five. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const totpContext = (accountId: string) => `totp:${accountId}`;

function totpFor(secretBase32: string, email: string) {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A recovery code as typed: case, spaces and dashes do not matter. */
const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]+/g, '');
const hashRecoveryCode = (code: string) => createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/**
 * Whether the account `accountId` (a column or a placeholder) has a second factor: a confirmed authenticator app or a
 * passkey. A sign-in asks it of its account's read (decision 055).
 */
export const secondFactorOf = (accountId: SQLWrapper) =>
  sql`(exists(select 1 from ${totpFactors}
              where ${totpFactors.accountId} = ${accountId} and ${totpFactors.confirmedAt} is not null)
       or exists(select 1 from ${passkeys} where ${passkeys.accountId} = ${accountId}))`;
/** Asked when a factor is added or removed, and by sign-ins other than a password's: a named prepared statement. */
const secondFactorExists = namedStatement<{ has: boolean }>(
  'account_has_second_factor',
  sql`select ${secondFactorOf(sql.placeholder('accountId'))} as has`,
);

/** Whether the account has a second factor: a confirmed authenticator app or a passkey (one statement). */
export async function hasSecondFactor(tx: Database | Transaction, accountId: string): Promise<boolean> {
  const [row] = await secondFactorExists(tx, { accountId });
  return row?.has === true;
}

/** A new set of recovery codes in the caller's transaction; the old set stops working. */
export async function issueRecoveryCodes(tx: Executor, accountId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.accountId, accountId));
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ accountId, codeHash: hashRecoveryCode(code) })));
  return codes;
}

/** The account's second-factor limit: 5 attempts per 15 minutes, shared by every process. */
export const secondFactorLimit = (accountId: string): Limit => ({
  key: attemptKey('second-factor', accountId),
  ...SECOND_FACTOR_LIMIT,
});

/**
 * An account's second factors on the embedded provider: the authenticator app (TOTP, its secret sealed by the key
 * service), recovery codes (hashes only) and the list the Security section shows. Every code check is reserved under
 * the account's second-factor limit first, and a TOTP code is spent on use, so it works once on any process.
 */
export function createFactorService({
  db,
  secrets,
  security,
  limiter,
  clock = Date.now,
}: {
  db: Database;
  secrets: KeyService;
  security: SecurityService;
  limiter: AttemptLimiter;
  /** The time codes are checked at, in ms since the epoch: a test's clock steps across a code's 30 seconds. */
  clock?: () => number;
}) {
  /**
   * Whether `code` is the account's current TOTP code (a step either side), spending its step so the same code never
   * works twice: the step's row is inserted, and a second use, on any process, finds it there.
   */
  async function spendTotpCode(accountId: string, secretBase32: string, email: string, code: string) {
    // One reading of the clock for both: read twice across a step's end, the step spent would be the one after the
    // code's, and that later step's own code would then be refused.
    const now = clock();
    const delta = totpFor(secretBase32, email).validate({ token: code, window: WINDOW_STEPS, timestamp: now });
    if (delta === null) return false;
    const step = Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
    const spent = await db
      .insert(totpUsedSteps)
      .values({ accountId, step })
      .onConflictDoNothing()
      .returning({ step: totpUsedSteps.step });
    return spent.length === 1;
  }

  async function storedSecret(accountId: string, confirmed: boolean): Promise<string | null> {
    const [row] = await db
      .select()
      .from(totpFactors)
      .where(
        and(
          eq(totpFactors.accountId, accountId),
          confirmed ? isNotNull(totpFactors.confirmedAt) : isNull(totpFactors.confirmedAt),
        ),
      );
    return row ? (await secrets.open(row.secret, totpContext(accountId))).toString('utf8') : null;
  }

  /** Reserves one second-factor attempt, or refuses with 429. */
  async function reserveAttempt(accountId: string) {
    const reservation = await limiter.reserve([secondFactorLimit(accountId)]);
    if (!reservation.reserved) throw new HttpError(429, FACTOR_MESSAGES.tooManyCodes);
    return reservation;
  }

  return {
    hasSecondFactor: (accountId: string) => hasSecondFactor(db, accountId),

    /** Whether the account has a confirmed authenticator app. */
    async hasTotp(accountId: string): Promise<boolean> {
      const [row] = await db
        .select({ accountId: totpFactors.accountId })
        .from(totpFactors)
        .where(and(eq(totpFactors.accountId, accountId), isNotNull(totpFactors.confirmedAt)));
      return row !== undefined;
    },

    async list(accountId: string): Promise<SecurityFactors> {
      const keys = await db
        .select()
        .from(passkeys)
        .where(eq(passkeys.accountId, accountId))
        .orderBy(asc(passkeys.createdAt));
      const [totp] = await db
        .select({ createdAt: totpFactors.confirmedAt })
        .from(totpFactors)
        .where(and(eq(totpFactors.accountId, accountId), isNotNull(totpFactors.confirmedAt)));
      const [codes] = await db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.accountId, accountId), isNull(recoveryCodes.usedAt)));
      return {
        passkeys: keys.map((key) => ({
          id: key.id,
          name: key.name,
          createdAt: key.createdAt.toISOString(),
          lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
          backedUp: key.backedUp,
        })),
        totp: { enabled: totp !== undefined, createdAt: totp?.createdAt?.toISOString() ?? null },
        recoveryCodes: { remaining: codes?.n ?? 0 },
      };
    },

    /** The authenticator key waiting for its first code, to show again; null when none is. */
    async pendingTotp(accountId: string, email: string): Promise<TotpSetup | null> {
      const secret = await storedSecret(accountId, false);
      return secret ? { secret, otpauthUrl: totpFor(secret, email).toString() } : null;
    },

    /** A new authenticator key, waiting for its first code (any earlier unconfirmed one is replaced). */
    async startTotp(accountId: string, email: string): Promise<TotpSetup> {
      if (await storedSecret(accountId, true)) throw new HttpError(409, FACTOR_MESSAGES.totpAlreadyEnabled);
      const secret = new Secret({ size: 20 }).base32;
      const sealed = await secrets.seal(secret, totpContext(accountId));
      await db
        .insert(totpFactors)
        .values({ accountId, secret: sealed })
        .onConflictDoUpdate({
          target: totpFactors.accountId,
          set: { secret: sealed, createdAt: sql`now()`, confirmedAt: null },
          where: isNull(totpFactors.confirmedAt),
        });
      return { secret, otpauthUrl: totpFor(secret, email).toString() };
    },

    /**
     * Turns the authenticator app on with its first code. The answer carries the recovery codes when it is the
     * account's first second factor.
     */
    async confirmTotp(
      accountId: string,
      email: string,
      code: string,
      origin: RequestOrigin,
    ): Promise<{ recoveryCodes?: string[] }> {
      const pending = await storedSecret(accountId, false);
      if (!pending) {
        if (await storedSecret(accountId, true)) throw new HttpError(409, FACTOR_MESSAGES.totpAlreadyEnabled);
        throw new HttpError(409, FACTOR_MESSAGES.totpNoSetup);
      }
      const reservation = await reserveAttempt(accountId);
      if (!(await spendTotpCode(accountId, pending, email, code))) throw new HttpError(400, FACTOR_MESSAGES.wrongCode);
      await limiter.release(reservation);
      const codes = await db.transaction(async (tx) => {
        const first = !(await hasSecondFactor(tx, accountId));
        const turnedOn = await tx
          .update(totpFactors)
          .set({ confirmedAt: sql`now()` })
          .where(and(eq(totpFactors.accountId, accountId), isNull(totpFactors.confirmedAt)))
          .returning({ accountId: totpFactors.accountId });
        if (turnedOn.length === 0) throw new HttpError(409, FACTOR_MESSAGES.totpNoSetup);
        await security.factorEvent(tx, accountId, 'factor-added', origin);
        return first ? issueRecoveryCodes(tx, accountId) : undefined;
      });
      security.kickMail();
      return codes ? { recoveryCodes: codes } : {};
    },

    /** Turns the authenticator app off; with no second factor left, the recovery codes go too. */
    async removeTotp(accountId: string, origin: RequestOrigin): Promise<void> {
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(totpFactors)
          .where(and(eq(totpFactors.accountId, accountId), isNotNull(totpFactors.confirmedAt)))
          .returning({ accountId: totpFactors.accountId });
        if (removed.length === 0) throw new HttpError(404, FACTOR_MESSAGES.totpNotEnabled);
        if (!(await hasSecondFactor(tx, accountId))) {
          await tx.delete(recoveryCodes).where(eq(recoveryCodes.accountId, accountId));
        }
        await security.factorEvent(tx, accountId, 'factor-removed', origin);
      });
      security.kickMail();
    },

    /** A new set of recovery codes (the old ones stop working); only for an account with a second factor. */
    async regenerateRecoveryCodes(accountId: string, origin: RequestOrigin): Promise<string[]> {
      const codes = await db.transaction(async (tx) => {
        if (!(await hasSecondFactor(tx, accountId))) throw new HttpError(409, FACTOR_MESSAGES.codesNeedAFactor);
        const issued = await issueRecoveryCodes(tx, accountId);
        await security.factorEvent(tx, accountId, 'recovery-codes-regenerated', origin);
        return issued;
      });
      security.kickMail();
      return codes;
    },

    /**
     * A change confirmed by the current password (a new password, closing the account) also asks an account with a
     * second factor for it: its current authenticator code, or an unused recovery code (spent). Nothing is asked of
     * an account without one. Refusals are 400 naming the `code` field, or 429 past the account's limit.
     */
    async confirmWithSecondFactor(
      account: { accountId: string; email: string },
      code: string | undefined,
      origin: RequestOrigin,
    ): Promise<void> {
      if (!(await hasSecondFactor(db, account.accountId))) return;
      const typed = (code ?? '').trim();
      if (!typed) throw new HttpError(400, FACTOR_MESSAGES.codeRequired, { code: [FACTOR_MESSAGES.codeRequired] });
      const digits = typed.replace(/\s/g, '');
      const outcome =
        /^\d{6}$/.test(digits) && (await this.hasTotp(account.accountId))
          ? await this.verifyTotp(account.accountId, account.email, digits)
          : await this.useRecoveryCode(account.accountId, typed, origin);
      if (outcome === 'limited') throw new HttpError(429, FACTOR_MESSAGES.tooManyCodes);
      if (outcome === 'wrong') {
        throw new HttpError(400, FACTOR_MESSAGES.wrongConfirmationCode, {
          code: [FACTOR_MESSAGES.wrongConfirmationCode],
        });
      }
    },

    /** Sign-in, step two: the account's current authenticator code, once. Counted under the account's limit. */
    async verifyTotp(accountId: string, email: string, code: string): Promise<'ok' | 'wrong' | 'limited'> {
      const reservation = await limiter.reserve([secondFactorLimit(accountId)]);
      if (!reservation.reserved) return 'limited';
      const secret = await storedSecret(accountId, true);
      if (!secret || !/^\d{6}$/.test(code) || !(await spendTotpCode(accountId, secret, email, code))) return 'wrong';
      await limiter.release(reservation);
      return 'ok';
    },

    /** Sign-in, step two: one unused recovery code, spent now (the member is told by mail). */
    async useRecoveryCode(accountId: string, code: string, origin: RequestOrigin): Promise<'ok' | 'wrong' | 'limited'> {
      const reservation = await limiter.reserve([secondFactorLimit(accountId)]);
      if (!reservation.reserved) return 'limited';
      const used = await db.transaction(async (tx) => {
        const spent = await tx
          .update(recoveryCodes)
          .set({ usedAt: sql`now()` })
          .where(
            and(
              eq(recoveryCodes.accountId, accountId),
              eq(recoveryCodes.codeHash, hashRecoveryCode(code)),
              isNull(recoveryCodes.usedAt),
            ),
          )
          .returning({ accountId: recoveryCodes.accountId });
        if (spent.length === 0) return false;
        await security.factorEvent(tx, accountId, 'recovery-code-used', origin);
        return true;
      });
      if (!used) return 'wrong';
      security.kickMail();
      await limiter.release(reservation);
      return 'ok';
    },
  };
}
export type FactorService = ReturnType<typeof createFactorService>;

/** Spent TOTP steps older than the accepted window are of no more use. */
export async function sweepTotpSteps(db: Database): Promise<void> {
  await db.delete(totpUsedSteps).where(lt(totpUsedSteps.usedAt, sql`now() - interval '10 minutes'`));
}
