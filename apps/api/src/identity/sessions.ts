import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { revokeAccount, revokeGrant } from './revocations.js';

type Executor = Pick<Database, 'execute'>;

/**
 * Ends the account's provider sessions with their grants, refresh tokens and codes, and voids its access tokens,
 * sparing the one grant given (the session that asked). Run it inside the transaction of the change that calls for
 * it, so both land together or neither does.
 */
export async function endAccountSessions(db: Executor, accountId: string, options: { keepGrant?: string | null } = {}) {
  const keep = options.keepGrant ?? '';
  await db.execute(sql`
    delete from oidc_payloads
    where payload->>'accountId' = ${accountId}
      and (
        (model = 'Session' and not exists (
          select 1 from jsonb_each(coalesce(payload->'authorizations', '{}'::jsonb)) as a(client, value)
          where a.value->>'grantId' = ${keep}))
        or (model = 'Grant' and id <> ${keep})
        or (model in ('RefreshToken', 'AuthorizationCode', 'AccessToken')
          and (${keep} = '' or coalesce(grant_id, '') <> ${keep}))
      )`);
  await revokeAccount(db, accountId, { exceptGrant: options.keepGrant ?? null });
}

/** The grants a provider session holds (one per client it signed in to): SQL over the row's `payload` column. */
export const SESSION_GRANTS_SQL = `coalesce(array(
  select a.value->>'grantId' from jsonb_each(coalesce(payload->'authorizations', '{}'::jsonb)) a
  where a.value->>'grantId' is not null), '{}')`;

/** One live provider session of the account, by its uid, locked until the transaction ends: its grants, or null. */
export async function lockAccountSession(db: Executor, accountId: string, sessionUid: string) {
  const { rows } = await db.execute<{ grants: string[] }>(sql`
    select ${sql.raw(SESSION_GRANTS_SQL)} as grants
    from oidc_payloads
    where model = 'Session' and uid = ${sessionUid} and payload->>'accountId' = ${accountId}
      and (expires_at is null or expires_at > clock_timestamp())
    for update`);
  return rows[0]?.grants ?? null;
}

/**
 * Ends one provider session with its grants, refresh tokens and codes, and voids the grants' access tokens on every
 * API process: what a sign-out does, for a session the member ends from another browser. Run it in a transaction.
 */
export async function endSession(db: Executor, sessionUid: string, grants: string[]) {
  const list = sql`${JSON.stringify(grants)}::jsonb`;
  await db.execute(sql`
    delete from oidc_payloads
    where (model = 'Session' and uid = ${sessionUid})
       or (model = 'Grant' and id in (select jsonb_array_elements_text(${list})))
       or grant_id in (select jsonb_array_elements_text(${list}))`);
  for (const grant of grants) await revokeGrant(db, grant);
}
