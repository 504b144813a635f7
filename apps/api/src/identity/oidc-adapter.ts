import { and, eq, lt, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/client.js';
import { oidcPayloads } from '../db/schema/index.js';
import { revokeGrant } from './revocations.js';

/** oidc-provider's storage in PostgreSQL, so restarts sign nobody out and processes share state. */
export function postgresAdapterFactory(db: Database) {
  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private key(id: string) {
      return and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id));
    }

    private async findWhere(where: ReturnType<typeof and>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select()
        .from(oidcPayloads)
        .where(and(where, sql`(${oidcPayloads.expiresAt} is null or ${oidcPayloads.expiresAt} > now())`));
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      const values = {
        model: this.model,
        id,
        payload,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(oidcPayloads)
        .values(values)
        .onConflictDoUpdate({ target: [oidcPayloads.model, oidcPayloads.id], set: values });
    }

    find(id: string) {
      return this.findWhere(this.key(id));
    }

    findByUid(uid: string) {
      return this.findWhere(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.uid, uid)));
    }

    findByUserCode(userCode: string) {
      return this.findWhere(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.userCode, userCode)));
    }

    async consume(id: string) {
      await db.update(oidcPayloads).set({ consumedAt: new Date() }).where(this.key(id));
    }

    async destroy(id: string) {
      if (this.model !== 'Grant') {
        await db.delete(oidcPayloads).where(this.key(id));
        return;
      }
      // A grant ends (sign-out, a replayed refresh token, a revoked one): its access tokens stop working at once, on
      // every API process.
      await db.transaction(async (tx) => {
        await tx.delete(oidcPayloads).where(this.key(id));
        await revokeGrant(tx, id);
      });
    }

    async revokeByGrantId(grantId: string) {
      await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
    }
  };
}

/** Deletes what oidc-provider stored that has expired (it ignores such rows, but they would pile up). */
export async function sweepExpiredPayloads(db: Database): Promise<number> {
  const removed = await db
    .delete(oidcPayloads)
    .where(lt(oidcPayloads.expiresAt, new Date()))
    .returning({ id: oidcPayloads.id });
  return removed.length;
}
