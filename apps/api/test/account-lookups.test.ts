import { ACCOUNT_DELETION_TEXTS } from '@ums/contracts';
import { browser, dpopHeaders, signIn, type SignedIn } from '@ums/testkit/oidc-browser';
import { describe, expect, it } from 'vitest';
import { accounts } from '../src/db/schema/index.js';
import { isAccountId } from '../src/identity/account-id.js';
import { createAccountService } from '../src/identity/accounts.service.js';
import { PASSWORD_MESSAGES } from '../src/identity/password-change.js';
import { growDirectoryAndAudit } from '../src/seed/grow-data.js';
import { providerApp } from './oidc-client.js';
import { explained } from './plans.js';
import { statementRecorder } from './pool-statements.js';

// A member's security alerts, data export and account closing find the member's account by its id among many: through
// the accounts' primary key, never by reading every account (an id compared as text reads them all: a quarter of a
// second of PostgreSQL's time per request at a million accounts). Ending the member's sessions finds their sessions,
// grants and tokens among every member's the same way.
const server = await providerApp();
const owner = server.database;
/** Enough rows that the planner reads a member's through an index whenever the statement lets it. */
await growDirectoryAndAudit(owner.pool, { accounts: 5000, auditEntries: 0, domain: 'lookups.example' });
await owner.pool.query(
  `insert into oidc_payloads (model, id, payload, grant_id, expires_at)
   select case when n % 2 = 0 then 'Grant' else 'RefreshToken' end, 'lookups-' || n,
          jsonb_build_object('accountId', a.account_id::text, 'kind', 'filler'), 'grant-' || n, now() + interval '1 day'
   from generate_series(1, 20000) n join accounts a on a.email = 'member' || (n % 5000 + 1) || '@lookups.example'`,
);
await owner.pool.query('analyze accounts, oidc_payloads');
/** The tables no member's request may read whole. */
const LARGE = new Set(['accounts', 'oidc_payloads']);

const recorded = statementRecorder(server.database.appRole.pool);

/**
 * What `work` sends that reads the accounts or the provider's rows from start to end: EXPLAIN of each statement, as
 * the server's connections plan it (their generic plan, decision 009), for any value.
 */
async function tablesReadWhole(work: () => Promise<void>): Promise<string[]> {
  const whole: string[] = [];
  for (const { text } of await recorded(work)) {
    if (![...LARGE].some((table) => text.includes(`"${table}"`))) continue;
    if (!/^\s*(select|with|update|delete|insert)\b/i.test(text)) continue;
    for (const node of await explained(owner.pool, text)) {
      if (node['Node Type'] === 'Seq Scan' && LARGE.has(node['Relation Name']!)) {
        whole.push(`${node['Relation Name']}: ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
      }
    }
  }
  return whole;
}

const PASSWORD = 'Lookups-Pass-2026!';
const service = createAccountService({ db: owner.db });
const fromAddress = (n: number) => ({ go: browser({ 'x-forwarded-for': `10.7.0.${n}` }) });
const mailsTo = async (email: string) =>
  Number(
    (await owner.pool.query<{ n: string }>('select count(*) as n from mail_outbox where recipient = $1', [email]))
      .rows[0]!.n,
  );
const call = async (session: SignedIn, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      ...dpopHeaders(session.access_token, method, `${server.base}${path}`),
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { message: string } };
};

describe("a member's account found by its id among 5,000, and their sessions and tokens among 20,000", () => {
  it('a sign-in from a new browser mails its alert without reading every account', async () => {
    const email = 'lookups-device@example.com';
    await service.add({ email, password: PASSWORD });
    await signIn(server.base, email, PASSWORD, fromAddress(1));
    const before = await mailsTo(email);
    expect(await tablesReadWhole(() => signIn(server.base, email, PASSWORD, fromAddress(2)).then(() => {}))).toEqual(
      [],
    );
    expect(await mailsTo(email)).toBe(before + 1);
  });

  it("a password change (which ends the member's other sessions and mails them) and their data export read no one else's rows", async () => {
    const email = 'lookups-password@example.com';
    await service.add({ email, password: PASSWORD });
    const session = await signIn(server.base, email, PASSWORD, fromAddress(3));
    const before = await mailsTo(email);
    const changed = await tablesReadWhole(async () => {
      const { status, body } = await call(session, 'POST', '/api/PasswordReset', {
        previousPassword: PASSWORD,
        proposedPassword: `${PASSWORD}x`,
      });
      expect([status, body.message]).toEqual([200, PASSWORD_MESSAGES.changed]);
    });
    expect(changed).toEqual([]);
    expect(await mailsTo(email)).toBe(before + 1);
    const again = await signIn(server.base, email, `${PASSWORD}x`, fromAddress(3));
    const exported = await tablesReadWhole(async () => {
      expect((await call(again, 'GET', '/api/me/export')).status).toBe(200);
    });
    expect(exported).toEqual([]);
  });

  it("closing an account (which ends the member's sessions and mails them) reads no one else's rows", async () => {
    const email = 'lookups-closing@example.com';
    await service.add({ email, password: PASSWORD });
    const session = await signIn(server.base, email, PASSWORD, fromAddress(4));
    const before = await mailsTo(email);
    const closing = await tablesReadWhole(async () => {
      const { status, body } = await call(session, 'POST', '/api/me/deletion', { password: PASSWORD });
      expect([status, body.message]).toEqual([200, ACCOUNT_DELETION_TEXTS.scheduled]);
    });
    expect(closing).toEqual([]);
    expect(await mailsTo(email)).toBe(before + 1);
  });

  it('an id finds its account through the index, in capitals too; a subject that is no account id finds none, and is no error', async () => {
    const { accountId } = await service.add({ email: 'lookups-named@example.com', password: PASSWORD });
    const found = (id: string) =>
      owner.db.select({ email: accounts.email }).from(accounts).where(isAccountId(accounts.accountId, id));
    expect(await found('operator')).toEqual([]);
    // An id with more after it is no id: the pattern is anchored at both ends.
    expect(await found(`${accountId} `)).toEqual([]);
    expect(await found(accountId.toUpperCase())).toEqual([{ email: 'lookups-named@example.com' }]);
    const plan = await explained(owner.pool, found(accountId).toSQL().sql);
    expect(plan.map((node) => node['Node Type'])).not.toContain('Seq Scan');
  });
});
