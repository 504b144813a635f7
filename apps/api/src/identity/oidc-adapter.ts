import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/client.js';
import { oidcPayloads } from '../db/schema/index.js';
import { revokeGrant } from './revocations.js';

/** How a refused reuse names the credential to the client (oidc-provider's own wording). */
const CREDENTIAL_NAMES: Record<string, string> = {
  RefreshToken: 'refresh token',
  AuthorizationCode: 'authorization code',
};

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

    /**
     * Marks a code or refresh token used, only if nobody did first: oidc-provider checks `consumed` before it calls
     * this, so two requests racing with one credential both passed that check. The loser is a reuse, treated as
     * oidc-provider treats one that comes later: the grant ends and the request is refused.
     */
    async consume(id: string) {
      const [won] = await db
        .update(oidcPayloads)
        .set({ consumedAt: new Date() })
        .where(and(this.key(id), isNull(oidcPayloads.consumedAt)))
        .returning({ id: oidcPayloads.id });
      if (won) return;
      const [lost] = await db.select({ grantId: oidcPayloads.grantId }).from(oidcPayloads).where(this.key(id));
      if (lost?.grantId) await endGrant(db, lost.grantId);
      throw new errors.InvalidGrant(`${CREDENTIAL_NAMES[this.model] ?? this.model} already used`);
    }

    async destroy(id: string) {
      if (this.model !== 'Grant') {
        await db.delete(oidcPayloads).where(this.key(id));
        return;
      }
      // A grant ends (sign-out, a replayed refresh token, a revoked one): its access tokens stop working at once, on
      // every API process.
      await endGrant(db, id);
    }

    async revokeByGrantId(grantId: string) {
      await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
    }
  };
}

/** Ends a grant: it, and every code and token issued under it, are deleted, and its access tokens stop working at once. */
async function endGrant(db: Database, grantId: string) {
  await db.transaction(async (tx) => {
    await tx
      .delete(oidcPayloads)
      .where(or(and(eq(oidcPayloads.model, 'Grant'), eq(oidcPayloads.id, grantId)), eq(oidcPayloads.grantId, grantId)));
    await revokeGrant(tx, grantId);
  });
}

/** Deletes what oidc-provider stored that has expired (it ignores such rows, but they would pile up). */
export async function sweepExpiredPayloads(db: Database): Promise<number> {
  const removed = await db
    .delete(oidcPayloads)
    .where(lt(oidcPayloads.expiresAt, new Date()))
    .returning({ id: oidcPayloads.id });
  return removed.length;
}
