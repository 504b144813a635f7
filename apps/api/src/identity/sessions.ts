import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { revokeAccount } from './revocations.js';

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
