import { ACCOUNT_DELETION_TEXTS } from '@ums/contracts';
import { browser, dpopHeaders, signIn, type SignedIn } from '@ums/testkit/oidc-browser';
import { describe, expect, it } from 'vitest';
import { accounts } from '../src/db/schema/index.js';
import { isAccountId } from '../src/identity/account-id.js';
import { createAccountService } from '../src/identity/accounts.service.js';
import { PASSWORD_MESSAGES } from '../src/identity/password-change.js';
import { growDirectoryAndAudit } from '../src/seed/grow-data.js';
import { providerApp } from './oidc-client.js';
import { watchStatements, type SentStatement } from './pool-statements.js';

// A member's security alerts, data export and account closing find the member's account by its id among many: through
// the accounts' primary key, never by reading every account (an id compared as text reads them all: a quarter of a
// second of PostgreSQL's time per request at a million accounts).
const server = await providerApp();
const owner = server.database;
/** Enough accounts that the planner reads one through its index whenever the statement lets it. */
await growDirectoryAndAudit(owner.pool, { accounts: 5000, auditEntries: 0, domain: 'lookups.example' });
await owner.pool.query('analyze accounts');

const sent: SentStatement[] = [];
let recording = false;
watchStatements(server.database.appRole.pool, (statement) => recording && sent.push(statement));

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/** What `work` sends that reads the accounts table from start to end (EXPLAIN of each statement, with its values). */
async function accountsReadWhole(work: () => Promise<void>): Promise<string[]> {
  sent.length = 0;
  recording = true;
  try {
    await work();
  } finally {
    recording = false;
  }
  const whole: string[] = [];
  for (const { text, values } of sent) {
    if (!text.includes('"accounts"') || !/^\s*(select|with|update|delete|insert)\b/i.test(text)) continue;
    const { rows } = await owner.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `explain (format json) ${text}`,
      values,
    );
    const scans = nodes(rows[0]!['QUERY PLAN'][0].Plan).filter(
      (node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'accounts',
    );
    if (scans.length > 0) whole.push(text.replace(/\s+/g, ' ').slice(0, 160));
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

describe("a member's account found by its id among 5,000", () => {
  it('a sign-in from a new browser mails its alert without reading every account', async () => {
    const email = 'lookups-device@example.com';
    await service.add({ email, password: PASSWORD });
    await signIn(server.base, email, PASSWORD, fromAddress(1));
    const before = await mailsTo(email);
    expect(await accountsReadWhole(() => signIn(server.base, email, PASSWORD, fromAddress(2)).then(() => {}))).toEqual(
      [],
    );
    expect(await mailsTo(email)).toBe(before + 1);
  });

  it("a password change, which mails the member, and the member's data export read no account but theirs", async () => {
    const email = 'lookups-password@example.com';
    await service.add({ email, password: PASSWORD });
    const session = await signIn(server.base, email, PASSWORD, fromAddress(3));
    const before = await mailsTo(email);
    const changed = await accountsReadWhole(async () => {
      const { status, body } = await call(session, 'POST', '/api/PasswordReset', {
        previousPassword: PASSWORD,
        proposedPassword: `${PASSWORD}x`,
      });
      expect([status, body.message]).toEqual([200, PASSWORD_MESSAGES.changed]);
    });
    expect(changed).toEqual([]);
    expect(await mailsTo(email)).toBe(before + 1);
    const again = await signIn(server.base, email, `${PASSWORD}x`, fromAddress(3));
    const exported = await accountsReadWhole(async () => {
      expect((await call(again, 'GET', '/api/me/export')).status).toBe(200);
    });
    expect(exported).toEqual([]);
  });

  it('closing an account, which mails the member, reads no account but theirs', async () => {
    const email = 'lookups-closing@example.com';
    await service.add({ email, password: PASSWORD });
    const session = await signIn(server.base, email, PASSWORD, fromAddress(4));
    const before = await mailsTo(email);
    const closing = await accountsReadWhole(async () => {
      const { status, body } = await call(session, 'POST', '/api/me/deletion', { password: PASSWORD });
      expect([status, body.message]).toEqual([200, ACCOUNT_DELETION_TEXTS.scheduled]);
    });
    expect(closing).toEqual([]);
    expect(await mailsTo(email)).toBe(before + 1);
  });

  it('a subject that is no account id finds no account, and is no error; an id in capitals finds its account', async () => {
    const { accountId } = await service.add({ email: 'lookups-named@example.com', password: PASSWORD });
    const found = (id: string) =>
      owner.db.select({ email: accounts.email }).from(accounts).where(isAccountId(accounts.accountId, id));
    expect(await found('operator')).toEqual([]);
    expect(await found(`${accountId}' or true --`)).toEqual([]);
    expect(await found(accountId.toUpperCase())).toEqual([{ email: 'lookups-named@example.com' }]);
    const query = found(accountId).toSQL();
    const { rows } = await owner.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `explain (format json) ${query.sql}`,
      query.params,
    );
    expect(nodes(rows[0]!['QUERY PLAN'][0].Plan).map((node) => node['Node Type'])).not.toContain('Seq Scan');
  });
});
