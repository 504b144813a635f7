import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { entityStripe } from '../src/db/write-stripes.js';
import { appendAudit, lockStripes } from '../src/modules/audit/audit.js';
import type { testDatabase } from './helper.js';
import { waitFor } from './wait-for.js';

/**
 * Writers held open on a stripe of the catalog's lock (decisions 036 and 040), and the requests that must or must
 * not wait for them: what `package-prices.test.ts` and `catalog-stripes.test.ts` share.
 */
export function stripeLocks(database: Awaited<ReturnType<typeof testDatabase>>) {
  /**
   * A write of the package or membership `id` held open: its stripe's lock, a row of it written (a membership's
   * with a promotional link made) and an audit entry added, as the services do, and not committed until the answered
   * function is called.
   */
  async function writeInFlight(
    id: number,
    table: 'discount_package_products' | 'memberships' = 'discount_package_products',
  ) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const transaction = database.appRole.db.transaction(async (tx) => {
      await lockStripes(tx, [entityStripe(id)]);
      await tx.execute(
        table === 'memberships'
          ? sql`update memberships set name = name where membership_id = ${id}`
          : sql`update discount_package_products set price = price where discount_package_id = ${id}`,
      );
      // A membership's write that also makes a promotional link: it moves that list's kept count (migration 0023).
      if (table === 'memberships') {
        await tx.execute(sql`insert into promotional_products (membership_id, product_id)
          select ${id}, p.product_id from products p
          where not exists (select 1 from promotional_products x
                            where x.membership_id = ${id} and x.product_id = p.product_id)
          order by p.product_id limit 1`);
      }
      await appendAudit(tx, {
        actor: { id: 'stripes-test', email: null },
        action: table === 'memberships' ? 'membership-updated' : 'package-price-changed',
        entity: table === 'memberships' ? 'membership' : 'discount-package',
        entityId: String(id),
        before: null,
        after: null,
      });
      holding();
      await released;
    });
    await held;
    return async () => {
      release();
      await transaction;
    };
  }

  /** The process ids of this database's backends waiting for a lock another transaction holds on the versions' rows. */
  const lockWaiters = async () =>
    (
      await database.pool.query<{ pid: number }>(
        `select pid from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and query like '%data_versions%'`,
      )
    ).rows.map((row) => row.pid);
  const waitingForLocks = async () => (await lockWaiters()).length;

  /**
   * Sends `request` while `hold` (a write held open) is in flight: it must be seen waiting for a lock, and not be
   * answered, until that write commits; answers its answer after.
   */
  async function whileHeld<T>(hold: () => Promise<() => Promise<void>>, request: () => Promise<T>): Promise<T> {
    const release = await hold();
    let settled = false;
    const sent = request().finally(() => (settled = true));
    try {
      expect(await waitFor(waitingForLocks, (n) => n > 0)).toBe(1);
      expect(settled).toBe(false);
    } finally {
      await release();
    }
    return sent;
  }

  /**
   * Sends `request` while `hold` is in flight: it must be answered without waiting for a lock. Answers its answer,
   * or 'waited' as soon as a backend is seen waiting.
   */
  async function besideHeld<T>(hold: () => Promise<() => Promise<void>>, request: () => Promise<T>) {
    const release = await hold();
    try {
      return await Promise.race([
        request(),
        waitFor(waitingForLocks, (n) => n > 0, 20_000).then((n) => (n > 0 ? 'waited' : 'timeout')),
      ]);
    } finally {
      await release();
    }
  }

  return { writeInFlight, whileHeld, besideHeld, lockWaiters };
}
