import { and, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { oidcPayloads } from '../db/schema/index.js';
import { revokeAccount, revokeGrant } from './revocations.js';

type Executor = Pick<Database, 'execute' | 'select' | 'insert' | 'delete'>;

/** The provider session rows of one account, by the account id their payload names. */
const payloadAccount = sql`${oidcPayloads.payload}->>'accountId'`;

/**
 * Ends the account's provider sessions with their grants, refresh tokens and codes, and voids its access tokens,
 * sparing the one grant given (the session that asked). Run it inside the transaction of the change that calls for
 * it, so both land together or neither does.
 */
export async function endAccountSessions(db: Executor, accountId: string, options: { keepGrant?: string | null } = {}) {
  const keep = options.keepGrant ?? '';
  await db.delete(oidcPayloads).where(
    and(
      sql`${payloadAccount} = ${accountId}`,
      or(
        and(
          sql`${oidcPayloads.model} = 'Session'`,
          sql`not exists (
            select 1 from jsonb_each(coalesce(${oidcPayloads.payload}->'authorizations', '{}'::jsonb)) as a(client, value)
            where a.value->>'grantId' = ${keep})`,
        ),
        and(sql`${oidcPayloads.model} = 'Grant'`, ne(oidcPayloads.id, keep)),
        and(
          sql`${oidcPayloads.model} in ('RefreshToken', 'AuthorizationCode', 'AccessToken')`,
          sql`(${keep} = '' or coalesce(${oidcPayloads.grantId}, '') <> ${keep})`,
        ),
      ),
    ),
  );
  await revokeAccount(db, accountId, { exceptGrant: options.keepGrant ?? null });
}

/** The grants a provider session holds (one per client it signed in to), from its row's payload. */
export const sessionGrants = sql<string[]>`coalesce(array(
  select a.value->>'grantId' from jsonb_each(coalesce(${oidcPayloads.payload}->'authorizations', '{}'::jsonb)) a
  where a.value->>'grantId' is not null), '{}')`;

/** One live provider session of the account, by its uid, locked until the transaction ends: its grants, or null. */
export async function lockAccountSession(db: Executor, accountId: string, sessionUid: string) {
  const rows = await db
    .select({ grants: sessionGrants })
    .from(oidcPayloads)
    .where(
      and(
        sql`${oidcPayloads.model} = 'Session'`,
        eq(oidcPayloads.uid, sessionUid),
        sql`${payloadAccount} = ${accountId}`,
        or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, sql`clock_timestamp()`)),
      ),
    )
    .for('update');
  return rows[0]?.grants ?? null;
}

/**
 * Ends one provider session with its grants, refresh tokens and codes, and voids the grants' access tokens on every
 * API process: what a sign-out does, for a session the member ends from another browser. Run it in a transaction.
 */
export async function endSession(db: Executor, sessionUid: string, grants: string[]) {
  const list = sql`(select jsonb_array_elements_text(${JSON.stringify(grants)}::jsonb))`;
  await db
    .delete(oidcPayloads)
    .where(
      or(
        and(sql`${oidcPayloads.model} = 'Session'`, eq(oidcPayloads.uid, sessionUid)),
        and(sql`${oidcPayloads.model} = 'Grant'`, inArray(oidcPayloads.id, list)),
        inArray(oidcPayloads.grantId, list),
      ),
    );
  for (const grant of grants) await revokeGrant(db, grant);
}
