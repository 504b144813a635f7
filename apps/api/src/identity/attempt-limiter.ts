import { createHash } from 'node:crypto';
import { lt, sql, type SQLWrapper } from 'drizzle-orm';
import { namedStatement, type Database } from '../db/client.js';
import { attemptEvents } from '../db/schema/index.js';

/** One thing that is limited: at most `max` attempts under `key` within `windowMs`. */
export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

/** The longest window any limit uses; rows older than this are swept. */
export const LONGEST_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A key that names what is limited without storing it: `attemptKey('pair', email, address)`. Emails and addresses
 * never rest in the attempts table, and a key has a fixed length whatever the input.
 */
export function attemptKey(kind: string, ...parts: string[]): string {
  return `${kind}:${createHash('sha256').update(parts.join('\u0000')).digest('base64url')}`;
}

export type Reservation = { reserved: true; ids: number[] } | { reserved: false; refused: Limit };

/** The limits as the reserving functions take them: keys, maxima and windows in seconds, in the same order. */
const limitValues = (limits: Limit[]) => ({
  keys: limits.map((l) => l.key),
  maxes: limits.map((l) => l.max),
  seconds: limits.map((l) => Math.ceil(l.windowMs / 1000)),
});
/** A reserving function's one row: the 1-based position of the limit that refused, or 0, and the rows reserved. */
function reservationOf<Row extends { refused: number; ids: string[] }>(
  rows: Row[],
  limits: Limit[],
): { row: Row; reservation: Reservation } {
  const [row] = rows;
  if (!row) throw new Error('the attempts were not reserved: the database answered no row');
  if (row.refused > 0) return { row, reservation: { reserved: false, refused: limits[row.refused - 1]! } };
  return { row, reservation: { reserved: true, ids: row.ids.map(Number) } };
}

/** The reservations and the release, as named prepared statements (decisions 041 and 055). */
const reserved = namedStatement<{ refused: number; ids: string[] }>(
  'attempts_reserve',
  sql`select refused, ids from attempt_reserve(${sql.placeholder('keys')}::text[], ${sql.placeholder('maxes')}::int[],
                                                ${sql.placeholder('seconds')}::int[])`,
);
/**
 * A password sign-in's guess: its three reservations and two counts in one statement (decision 055). Its select is
 * exported so that one statement can reserve a guess and read with it: `signInGuessValues` fills its placeholders, and
 * `signInGuessOf` reads its row.
 */
export const signInGuessReserved = sql`select refused, ids, familiar, recent
  from sign_in_reserve(${sql.placeholder('keys')}::text[], ${sql.placeholder('maxes')}::int[],
                       ${sql.placeholder('seconds')}::int[], ${sql.placeholder('recentSeconds')}::int)`;
export type SignInGuessRow = { refused: number; ids: string[]; familiar: boolean; recent: number };
const signInReserved = namedStatement<SignInGuessRow>('sign_in_reserve', signInGuessReserved);

/** A password sign-in's limits: this account from this address (the pair), the address, and the account. */
export type SignInLimits = { pair: Limit; address: Limit; account: Limit };
/** A password sign-in's guess, reserved (see `reserveSignIn`). */
export type SignInGuess = { reservation: Reservation; familiar: boolean; recent: number };
const signInOrder = ({ pair, address, account }: SignInLimits) => [pair, address, account];
/** The placeholders' values of `signInGuessReserved`. */
export const signInGuessValues = (limits: SignInLimits, recentMs: number) => ({
  ...limitValues(signInOrder(limits)),
  recentSeconds: Math.ceil(recentMs / 1000),
});
/** The guess a statement selecting `signInGuessReserved` reserved, from its one row. */
export function signInGuessOf(rows: SignInGuessRow[], limits: SignInLimits): SignInGuess {
  const { row, reservation } = reservationOf(rows, signInOrder(limits));
  return { reservation, familiar: row.familiar, recent: row.recent };
}
/**
 * Deletes the attempts `ids` (reserved, and not failures after all) and every attempt under `keys` (failures the right
 * password forgives). A successful sign-in sends it with its record (decision 055).
 */
export const forgetAttempts = (ids: SQLWrapper, keys: SQLWrapper) =>
  sql`delete from ${attemptEvents} where ${attemptEvents.id} = any(${ids}::bigint[]) or ${attemptEvents.key} = any(${keys}::text[])`;
/** What a successful attempt forgets: its own reservation, and the failures under some keys. */
export interface Forgotten {
  ids: number[];
  keys: string[];
}
const released = namedStatement('attempts_release', forgetAttempts(sql.placeholder('ids'), sql.placeholder('keys')));

/**
 * Sliding-window attempt limits kept in PostgreSQL, shared by every API process. An attempt is reserved before the
 * password is checked, by one atomic call that counts and decides for all its keys at once, so concurrent guesses
 * cannot all pass a check made before any of them is recorded. A successful attempt is released again: only failures
 * count.
 */
export function createAttemptLimiter({ db }: { db: Database }) {
  /** Forgets the attempts `ids` and every failure under `keys`, in one statement (nothing to send for none). */
  async function forget({ ids, keys }: Forgotten): Promise<void> {
    if (ids.length === 0 && keys.length === 0) return;
    await released(db, { ids, keys });
  }
  return {
    async reserve(limits: Limit[]): Promise<Reservation> {
      return reservationOf(await reserved(db, limitValues(limits)), limits).reservation;
    },

    /**
     * A password sign-in's guess, in one statement (decision 055): reserved under the pair's (this account from this
     * address), the address's and the account's limits, the account's enforced only when this pair has failed within
     * the account's window (`familiar`; else counted only, so that nobody locks a member out by guessing at their
     * email from elsewhere). `recent` is how many failures the account had within `recentMs` before this guess, when
     * it was reserved.
     */
    async reserveSignIn(limits: SignInLimits, recentMs: number): Promise<SignInGuess> {
      return signInGuessOf(await signInReserved(db, signInGuessValues(limits, recentMs)), limits);
    },

    /**
     * Forgets a reserved attempt that turned out not to be a failure, and with it (in the same statement) every
     * failure recorded under `clear`'s keys.
     */
    async release(reservation: Reservation, clear: string[] = []): Promise<void> {
      await forget({ ids: reservation.reserved ? reservation.ids : [], keys: clear });
    },

    forget,
  };
}
export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;

/** Deletes attempts older than the longest window: the table holds at most a day of failures. */
export async function sweepAttempts(db: Database, now = Date.now()): Promise<number> {
  const removed = await db
    .delete(attemptEvents)
    .where(lt(attemptEvents.at, new Date(now - LONGEST_WINDOW_MS)))
    .returning({ id: attemptEvents.id });
  return removed.length;
}
