import { createHash } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
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

/** A sign-in's reservation, counts and release, as named prepared statements (decision 041). */
const reserved = namedStatement<{ refused: number; ids: string[] }>(
  'attempts_reserve',
  sql`select refused, ids from attempt_reserve(${sql.placeholder('keys')}::text[], ${sql.placeholder('maxes')}::int[],
                                                ${sql.placeholder('seconds')}::int[])`,
);
const counted = namedStatement<{ n: number }>(
  'attempts_count',
  sql`select count(*)::int as n from ${attemptEvents}
    where ${attemptEvents.key} = ${sql.placeholder('key')}
      and ${attemptEvents.at} > ${sql.placeholder('since')}::timestamptz`,
);
const released = namedStatement(
  'attempts_release',
  sql`delete from ${attemptEvents}
    where ${attemptEvents.id} = any(${sql.placeholder('ids')}::bigint[])
       or ${attemptEvents.key} = any(${sql.placeholder('keys')}::text[])`,
);

/**
 * Sliding-window attempt limits kept in PostgreSQL, shared by every API process. An attempt is reserved before the
 * password is checked, by one atomic call that counts and decides for all its keys at once, so concurrent guesses
 * cannot all pass a check made before any of them is recorded. A successful attempt is released again: only failures
 * count.
 */
export function createAttemptLimiter({ db }: { db: Database }) {
  return {
    async reserve(limits: Limit[]): Promise<Reservation> {
      const [row] = await reserved(db, {
        keys: limits.map((l) => l.key),
        maxes: limits.map((l) => l.max),
        seconds: limits.map((l) => Math.ceil(l.windowMs / 1000)),
      });
      if (!row) throw new Error('attempt_reserve answered no row');
      if (row.refused > 0) return { reserved: false, refused: limits[row.refused - 1]! };
      return { reserved: true, ids: row.ids.map(Number) };
    },

    /**
     * Forgets a reserved attempt that turned out not to be a failure, and with it (in the same statement) every
     * failure recorded under `clear`'s keys.
     */
    async release(reservation: Reservation, clear: string[] = []): Promise<void> {
      const ids = reservation.reserved ? reservation.ids : [];
      if (ids.length === 0 && clear.length === 0) return;
      await released(db, { ids, keys: clear });
    },

    /** Failures recorded under the key within the window. */
    async count(key: string, windowMs: number): Promise<number> {
      const [row] = await counted(db, { key, since: new Date(Date.now() - windowMs) });
      return row?.n ?? 0;
    },
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
