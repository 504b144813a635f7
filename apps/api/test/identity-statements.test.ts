import { beforeAll, describe, expect, it } from 'vitest';
import { authorizeUrl, browser, pkce, refresh, signIn } from '@ums/testkit/oidc-browser';
import { createAccountService } from '../src/identity/accounts.service.js';
import { ALERT_SUBJECTS } from '../src/mail/alerts.js';
import { providerApp } from './oidc-client.js';
import { planNodes, type PlanNode } from './plans.js';
import { statementRecorder, type SentStatement } from './pool-statements.js';

// Decision 041: the statements of every sign-in and refresh are named prepared statements, their text built once and
// their plans made once per connection, and there are no more of them than the flow needs.
const server = await providerApp();

// Every statement the app's pool sends while a flow runs. The app's own timers share the pool, but their first turns
// come 30 s (the revocation poll), 60 s (the proofs' sweep) and 10 minutes (the other sweeps) after its start: the
// flows are recorded within its first seconds.
const recorded = statementRecorder(server.database.appRole.pool);

const PASSWORD = 'Statements-Pass-42';
const accounts = createAccountService({ db: server.database.db });
const ip = (n: number) => ({ go: browser({ 'x-forwarded-for': `10.9.0.${n}` }) });
let signInStatements: SentStatement[] = [];
let refreshStatements: SentStatement[] = [];
/** The statements of a token request that carries no proof to claim. */
let otherStatements: SentStatement[] = [];
/** The statements of a sign-in from a browser the account has not seen, after it has signed in elsewhere. */
let newDeviceStatements: SentStatement[] = [];
/** The statements of a silent renewal's authorization (`prompt=none` in a signed-in browser), to its code. */
let silentStatements: SentStatement[] = [];

beforeAll(async () => {
  for (const n of [1, 2]) await accounts.add({ email: `statements-${n}@example.com`, password: PASSWORD });
  // The process's first sign-in reads what it keeps afterwards (keys, the client); the second is measured.
  await signIn(server.base, 'statements-1@example.com', PASSWORD, ip(1));
  let refreshToken = '';
  let signedIn: Awaited<ReturnType<typeof signIn>> | undefined;
  signInStatements = await recorded(async () => {
    signedIn = await signIn(server.base, 'statements-2@example.com', PASSWORD, ip(2));
    refreshToken = signedIn.refresh_token;
  });
  silentStatements = await recorded(async () => {
    const answer = await signedIn!.go(authorizeUrl(server.base, pkce().challenge, { prompt: 'none' }));
    expect(new URL(answer.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });
  refreshStatements = await recorded(() => refresh(server.base, refreshToken));
  otherStatements = await recorded(async () => {
    // Refused (the web client's tokens are bound to a key), after the token was read.
    expect((await refresh(server.base, refreshToken, null)).status).toBe(400);
  });
  // A new browser (its own cookie jar) for an account that signed in above: a new device, told to the member by mail.
  newDeviceStatements = await recorded(async () => {
    await signIn(server.base, 'statements-2@example.com', PASSWORD, ip(2));
  });
});

describe('the statements of a sign-in and a refresh', () => {
  it('a password sign-in sends 10 statements and a refresh-token grant 2', () => {
    expect(signInStatements.map((s) => s.name)).toEqual([
      'oidc_upsert', // authorize: the interaction
      'oidc_find', // the sign-in page: the interaction
      'oidc_find', // the password: the interaction, read once for the whole request
      // the attempt, counted against its limits before the password is checked, with whether this address has failed
      // for this account before and the account's recent failures (the slow-down; decision 055), and the account,
      // whether it has a second factor, and whether it is closing (decision 057)
      'sign_in_reserve_with_account',
      // the device remembered and the sign-in recorded, with the attempt and this address's failures forgiven
      'security_signed_in',
      'oidc_upsert', // the interaction's result
      // back to the provider: the interaction, taken (deleted as it is read), with the account it signed in
      'oidc_take_interaction_with_account',
      // the session, with its use for the devices list, and the grant and authorization code the resume held for it
      // (decision 057)
      'oidc_upsert_session_used_with_held',
      // the token request: its DPoP proof's id claimed, and the code read with its session, grant and account
      'oidc_claim_find_with_session_grant_account',
      // the code used, and the refresh token issued for it stored only if this statement used the code (decision 057)
      'oidc_exchange_code',
    ]);
    expect(refreshStatements.map((s) => s.name)).toEqual([
      // the DPoP proof's id claimed, and the refresh token read with its session, grant and account
      'oidc_claim_find_with_session_grant_account',
      // the refresh token used, its session with it, and the new refresh token stored
      'oidc_rotate_refresh_token',
    ]);
  });

  it("a silent renewal's authorization sends its code with its session's save", () => {
    expect(silentStatements.map((s) => s.name)).toEqual([
      'oidc_find', // the session, by its cookie
      'account_for_tokens', // its account, with its revocation mark
      'oidc_find', // its grant
      // the session with its use, and the code the authorization held for it (decision 057)
      'oidc_upsert_session_used_with_held',
    ]);
  });

  it('a sign-in from a new device sends one statement more: the device, its two events and the alert in one', async () => {
    const names = newDeviceStatements.map((s) => s.name);
    expect(names.filter((name) => name !== 'oidc_find' && name !== 'oidc_upsert')).toEqual([
      'sign_in_reserve_with_account',
      'security_signed_in', // answers that the device is new, with the account's address
      'security_new_device', // the device remembered, the sign-in and the new device recorded, the alert queued
      'oidc_take_interaction_with_account',
      'oidc_upsert_session_used_with_held',
      'oidc_claim_find_with_session_grant_account',
      'oidc_exchange_code',
    ]);
    expect(names).toHaveLength(11);
    const { rows } = await server.database.pool.query<{ event: string }>(
      `select event from security_events e join accounts a on a.account_id::text = e.subject
       where a.email = 'statements-2@example.com' order by e.at, e.id`,
    );
    expect(rows.map((row) => row.event)).toEqual(['sign-in', 'sign-in', 'new-device']);
    const { rows: mail } = await server.database.pool.query<{ subject: string; body: string }>(
      `select subject, body from mail_outbox where recipient = 'statements-2@example.com'`,
    );
    expect(mail.map((row) => row.subject)).toEqual([ALERT_SUBJECTS['new-device']]);
    // Sealed until sent, as every queued body is.
    expect(mail[0]!.body).toMatch(/^ums-sealed-v1\./);
  });

  it('sends each of them as a named prepared statement', () => {
    const unnamed = [
      ...signInStatements,
      ...refreshStatements,
      ...otherStatements,
      ...newDeviceStatements,
      ...silentStatements,
    ]
      .filter((s) => !s.name)
      .map((s) => s.text);
    expect(unnamed).toEqual([]);
  });

  it('reads every large table through an index in each statement’s generic plan', { timeout: 60_000 }, async () => {
    const owner = server.database.pool;
    const rows = 20_000;
    // At realistic size: many members, their sessions and tokens, devices, sign-in activity and failed attempts.
    await owner.query(`
      insert into accounts (email, password_hash) select 'grown-' || n || '@example.com', 'x' from generate_series(1, ${rows}) n;
      insert into oidc_payloads (model, id, payload, grant_id, uid, expires_at)
        select m, md5(m || n), '{}', 'grant-' || n, 'uid-' || m || n, now() + interval '1 hour'
        from generate_series(1, ${rows}) n, unnest(array['Session', 'RefreshToken', 'Grant', 'Interaction']) m;
      insert into attempt_events (key, at) select 'pair:' || n, now() from generate_series(1, ${rows}) n;
      insert into known_devices (account_id, device_hash) select 'account-' || n, md5(n::text) from generate_series(1, ${rows}) n;
      insert into session_details (session_uid, account_id, browser, os)
        select 'uid-' || n, 'account-' || n, 'Firefox', 'Linux' from generate_series(1, ${rows}) n;
      insert into security_events (subject, event, browser, os)
        select 'account-' || n, 'sign-in', 'Firefox', 'Linux' from generate_series(1, ${rows}) n;
      insert into token_revocations (key, not_before) select 'account:' || n, now() from generate_series(1, ${rows}) n;
      analyze;`);
    const large = [
      'accounts',
      'oidc_payloads',
      'attempt_events',
      'known_devices',
      'session_details',
      'security_events',
      'token_revocations',
    ];
    const client = await owner.connect();
    try {
      const scans: string[] = [];
      const statements = new Map(
        [
          ...signInStatements,
          ...refreshStatements,
          ...otherStatements,
          ...newDeviceStatements,
          ...silentStatements,
        ].map((s) => [s.name!, s.text]),
      );
      // The token endpoint's look-up without a proof to claim is checked too.
      expect(otherStatements.map((s) => s.name)).toContain('oidc_find_with_session_grant_account');
      for (const [name, text] of statements) {
        const parameters = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
        // Under a name of its own: the owner's connection may hold the app's statement already.
        await client.query(`prepare explained_${name} as ${text}`);
        const nulls = Array.from({ length: parameters }, () => 'null').join(', ');
        const { rows: plan } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `explain (format json) execute explained_${name}${parameters ? `(${nulls})` : ''}`,
        );
        for (const node of planNodes(plan[0]!['QUERY PLAN'][0].Plan)) {
          if (node['Node Type'] === 'Seq Scan' && large.includes(node['Relation Name'] ?? '')) {
            scans.push(`${name}: ${node['Relation Name']}`);
          }
        }
      }
      expect(scans).toEqual([]);
    } finally {
      await client.query('deallocate all');
      client.release();
    }
  });
});
