import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { attemptEvents } from '../db/schema/index.js';

/**
 * A sliding-window attempt counter per key, kept in PostgreSQL: several API processes behind a load balancer
 * refuse the same guesses. Keys name what is limited, such as "email:a@b.c", "ip:203.0.113.7" or "password:sub".
 */
export function createAttemptLimiter({ db, max, windowMs }: { db: Database; max: number; windowMs: number }) {
  const since = () => new Date(Date.now() - windowMs);

  async function counts(keys: string[]): Promise<Map<string, number>> {
    const rows = await db
      .select({ key: attemptEvents.key, count: sql<number>`count(*)::int` })
      .from(attemptEvents)
      .where(and(inArray(attemptEvents.key, keys), gt(attemptEvents.at, since())))
      .groupBy(attemptEvents.key);
    return new Map(rows.map((r) => [r.key, r.count]));
  }

  /** Records one attempt for each key, and forgets their attempts older than the window. */
  async function record(...keys: string[]): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.delete(attemptEvents).where(and(inArray(attemptEvents.key, keys), lt(attemptEvents.at, since())));
      await tx.insert(attemptEvents).values(keys.map((key) => ({ key })));
    });
  }

  return {
    /** Whether any of the keys has used up its attempts in the window. */
    async blocked(...keys: string[]): Promise<boolean> {
      const found = await counts(keys);
      return keys.some((key) => (found.get(key) ?? 0) >= max);
    },

    record,

    /** Counts this attempt and says whether it is over the limit (the attempt that makes max + 1 is refused). */
    async consume(key: string): Promise<boolean> {
      await record(key);
      return ((await counts([key])).get(key) ?? 0) > max;
    },

    async clear(key: string): Promise<void> {
      await db.delete(attemptEvents).where(eq(attemptEvents.key, key));
    },
  };
}
export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;
