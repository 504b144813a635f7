import { describe, expect, it } from 'vitest';
import { testConfig, testDatabase, testSecrets } from '../../test/helper.js';
import { queuedText } from '../mail/outbox.js';
import { createAccountService } from '../identity/accounts.service.js';
import { runCli } from './commands.js';

const database = await testDatabase();
// The tests' secrets key, as the apps on test databases use: a command never creates a key file in the checkout.
const config = testConfig();
const accounts = createAccountService({ db: database.db });

const cli = (...argv: string[]) => cliWith(config, ...argv);
/** How many times a command opened the database. */
let opened = 0;

async function cliWith(cliConfig: typeof config, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    config: cliConfig,
    // The command closes what it opens; the test keeps its pool open.
    openDatabase: async () => {
      opened += 1;
      return { db: database.db, pool: database.pool, embedded: false, sharedWithServer: false, close: async () => {} };
    },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('operator CLI', () => {
  it("adds an account whose address is not known to be the member's with --unverified, and says so", async () => {
    expect(
      await cli('users', 'add', '--email', 'imported@example.com', '--password', 'Imported-Pass-1', '--unverified'),
    ).toMatchObject({ code: 0, out: 'Added imported@example.com (email not verified).' });
    expect((await accounts.findByEmail('imported@example.com'))?.emailVerified).toBe(false);
    await cli('users', 'add', '--email', 'known@example.com', '--password', 'Known-Pass-1');
    expect((await accounts.findByEmail('known@example.com'))?.emailVerified).toBe(true);
    await cli('users', 'remove', '--email', 'imported@example.com');
    await cli('users', 'remove', '--email', 'known@example.com');
  });

  it('refuses every users command, changing nothing, when another provider signs members in', async () => {
    const elsewhere = testConfig({ AUTH_ISSUER: 'https://login.example.com/realms/ums' });
    const sentence =
      "The users commands manage the embedded provider's accounts, and AUTH_ISSUER names another provider " +
      '(https://login.example.com/realms/ums): manage its users there.';
    const email = 'elsewhere@example.com';
    const openedBefore = opened;
    for (const argv of [
      ['users', 'add', '--email', email, '--password', 'Elsewhere-Pass-1'],
      ['users', 'set-password', '--email', email, '--password', 'Elsewhere-Pass-2'],
      ['users', 'list'],
      ['users', 'remove', '--email', email],
      ['users', 'end-sessions', '--email', email],
      ['users', 'grant', '--email', email, '--role', 'Support'],
      ['users', 'revoke', '--email', email, '--role', 'Support'],
      ['users', 'grant-admin', '--email', email],
      ['users', 'revoke-admin', '--email', email],
    ]) {
      expect(await cliWith(elsewhere, ...argv), argv.join(' ')).toEqual({ code: 1, out: '', err: sentence });
    }
    // Not one of them opened the database.
    expect(opened).toBe(openedBefore);
    expect(await accounts.findByEmail(email)).toBeNull();
  });

  it('answers a users command that does not exist with the usage, whichever provider signs members in', async () => {
    const elsewhere = testConfig({ AUTH_ISSUER: 'https://login.example.com/realms/ums' });
    for (const cliConfig of [config, elsewhere]) {
      const { code, err } = await cliWith(cliConfig, 'users', 'frobnicate');
      expect(code).toBe(1);
      expect(err).toMatch(/^Unknown users command "frobnicate"\.\n\nUsage:/);
      const unnamed = await cliWith(cliConfig, 'users');
      expect(unnamed.code).toBe(1);
      expect(unnamed.err).toMatch(/^Name a users command\.\n\nUsage:/);
    }
  });

  it('adds, lists, grants and revokes admin, sets a password and removes users', async () => {
    expect(
      await cli(
        'users',
        'add',
        '--email',
        'ops@example.com',
        '--password',
        'Ops-Pass-99',
        '--first-name',
        'Ola',
        '--last-name',
        'Ops',
      ),
    ).toMatchObject({ code: 0, out: 'Added ops@example.com.' });
    expect((await cli('users', 'list')).out).toMatch(/^ops@example\.com\t-\tOla Ops\t/);
    expect((await cli('users', 'grant-admin', '--email', 'OPS@example.com')).code).toBe(0);
    expect((await accounts.list())[0]?.groups).toEqual(['Admin']);
    // The only administrator stays one: somebody must be left to give the group to others.
    expect(await cli('users', 'revoke-admin', '--email', 'ops@example.com')).toMatchObject({
      code: 1,
      err: 'The last administrator cannot lose the Admin group: give it to someone else first.',
    });
    expect((await accounts.list())[0]?.groups).toEqual(['Admin']);
    await cli('users', 'add', '--email', 'spare@example.com', '--password', 'Spare-Pass-99', '--admin');
    expect((await cli('users', 'revoke-admin', '--email', 'ops@example.com')).code).toBe(0);
    expect((await accounts.list())[0]?.groups).toEqual([]);
    // Nor does removing the account take the last administrator away.
    expect(await cli('users', 'remove', '--email', 'spare@example.com')).toMatchObject({
      code: 1,
      err: 'The last administrator cannot lose the Admin group: give it to someone else first.',
    });
    expect((await cli('users', 'revoke-admin', '--email', 'spare@example.com')).code).toBe(1);
    expect((await cli('users', 'grant-admin', '--email', 'ops@example.com')).code).toBe(0);
    expect((await cli('users', 'remove', '--email', 'spare@example.com')).code).toBe(0);
    expect((await cli('users', 'revoke-admin', '--email', 'ops@example.com')).code).toBe(1);
    // The next steps remove every account: past the rule, as only the database's owner could.
    await database.pool.query(`update accounts set groups = '{}' where email = 'ops@example.com'`);
    expect((await cli('users', 'set-password', '--email', 'ops@example.com', '--password', 'New-Pass-77')).code).toBe(
      0,
    );
    expect(await accounts.verifyCredentials('ops@example.com', 'New-Pass-77')).not.toBeNull();
    expect((await cli('users', 'remove', '--email', 'ops@example.com')).code).toBe(0);
    expect((await cli('users', 'list')).out).toBe('No accounts.');
  });

  it('gives and takes the Support and Catalog roles with grant and revoke --role, and refuses a role there is not', async () => {
    await cli('users', 'add', '--email', 'helper@example.com', '--password', 'Helper-Pass-99');
    expect(await cli('users', 'grant', '--email', 'helper@example.com', '--role', 'support')).toMatchObject({
      code: 0,
      out: 'helper@example.com is now in the Support group.',
    });
    expect((await cli('users', 'grant', '--email', 'helper@example.com', '--role', 'Catalog')).code).toBe(0);
    expect((await accounts.findByEmail('helper@example.com'))?.groups).toEqual(['Support', 'Catalog']);
    expect(await cli('users', 'revoke', '--email', 'helper@example.com', '--role', 'Support')).toMatchObject({
      code: 0,
      out: 'helper@example.com is no longer in the Support group.',
    });
    const wrong = await cli('users', 'grant', '--email', 'helper@example.com', '--role', 'Billing');
    expect([wrong.code, wrong.err.split('\n')[0]]).toEqual([
      1,
      '--role must be one of Admin, Support, Catalog (got "Billing").',
    ]);
    expect((await cli('users', 'grant', '--email', 'helper@example.com')).err).toMatch(/^Missing --role\./);
    expect((await accounts.findByEmail('helper@example.com'))?.groups).toEqual(['Catalog']);
    await cli('users', 'remove', '--email', 'helper@example.com');
  });

  it("records an operator's grant and revoke in the audit trail as the operator's and mails the member, and changes nothing for a role given already", async () => {
    await cli('users', 'add', '--email', 'told@example.com', '--password', 'Told-Pass-2026');
    const id = (await accounts.findByEmail('told@example.com'))!.accountId;
    expect((await cli('users', 'grant', '--email', 'told@example.com', '--role', 'Support')).out).toBe(
      'told@example.com is now in the Support group.',
    );
    expect(await cli('users', 'grant', '--email', 'Told@Example.com', '--role', 'support')).toMatchObject({
      code: 0,
      out: 'Told@Example.com is now in the Support group (it already was).',
    });
    expect((await cli('users', 'revoke', '--email', 'told@example.com', '--role', 'Support')).code).toBe(0);
    expect(await cli('users', 'revoke', '--email', 'told@example.com', '--role', 'Support')).toMatchObject({
      code: 0,
      out: 'told@example.com is no longer in the Support group (it was not in it).',
    });

    const entries = await database.pool.query(
      `select actor_id, actor_email, action, label, before, after from audit_entries
       where entity = 'member' and entity_id = $1 order by id`,
      [id],
    );
    const changed = {
      actor_id: 'operator',
      actor_email: null,
      action: 'member-groups-changed',
      label: 'told@example.com',
    };
    expect(entries.rows).toEqual([
      { ...changed, before: { groups: [] }, after: { groups: ['Support'] } },
      { ...changed, before: { groups: ['Support'] }, after: { groups: [] } },
    ]);
    const mails = await database.pool.query<{ subject: string; body: string }>(
      `select subject, body from mail_outbox where recipient = 'told@example.com' order by id`,
    );
    expect(mails.rows.map((mail) => mail.subject)).toEqual([
      'Your access to the admin console changed',
      'Your access to the admin console changed',
    ]);
    const [given, taken] = await Promise.all(mails.rows.map((mail) => queuedText(mail.body, testSecrets(database.db))));
    expect(given).toContain(
      "An operator changed the roles of your UMS Health account (told@example.com) at the server's command line on",
    );
    expect(given).toContain('Your roles were: none.\nYour roles are now: Support.');
    expect(taken).toContain('Your roles were: Support.\nYour roles are now: none.');
    await cli('users', 'remove', '--email', 'told@example.com');
  });

  it('refuses bad flags and weak passwords with a message and exit code 1, changing nothing', async () => {
    await cli('users', 'add', '--email', 'keep@example.com', '--password', 'Keep-Pass-11');
    const cases: [string[], string][] = [
      [['users', 'add', '--email', 'x@example.com'], 'Missing --password'],
      [
        ['users', 'add', '--email', 'x@example.com', '--password', 'weakpass'],
        'Password must contain at least one uppercase letter (A-Z)',
      ],
      [
        ['users', 'add', '--email', 'x@example.com', '--password', 'Good-Pass-1', '--colour', 'red'],
        "Unknown option '--colour'",
      ],
      [
        ['users', 'set-password', '--email', 'keep@example.com', '--password', 'aaaBBB111!!!'],
        'more than 2 identical characters',
      ],
      [['users', 'remove', '--email', 'ghost@example.com'], 'Account ghost@example.com was not found'],
      [
        ['users', 'grant', '--email', 'ghost@example.com', '--role', 'Support'],
        'Account ghost@example.com was not found',
      ],
      [['users', 'revoke-admin', '--email', 'ghost@example.com'], 'Account ghost@example.com was not found'],
      [['users', 'frobnicate'], 'Unknown users command "frobnicate"'],
      [['launch'], 'Unknown command "launch"'],
    ];
    for (const [argv, message] of cases) {
      const result = await cli(...argv);
      expect(result.code, argv.join(' ')).toBe(1);
      expect(result.err, argv.join(' ')).toContain(message);
    }
    expect((await accounts.list()).map((a) => a.email)).toEqual(['keep@example.com']);
    expect(await accounts.verifyCredentials('keep@example.com', 'Keep-Pass-11')).not.toBeNull();
  });

  it('ends every session of an account with end-sessions, and records a revocation each process hears', async () => {
    const account = await accounts.add({ email: 'ends@example.com', password: 'Ends-Pass-11' });
    await database.pool.query(
      `insert into oidc_payloads (model, id, payload, grant_id) values
         ('Session', 's-ends', $1, null), ('Grant', 'g-ends', $1, null), ('RefreshToken', 'r-ends', $1, 'g-ends')`,
      [JSON.stringify({ accountId: account.accountId })],
    );
    expect(await cli('users', 'end-sessions', '--email', 'Ends@example.com')).toMatchObject({
      code: 0,
      out: 'Every session of Ends@example.com has ended.',
    });
    const left = await database.pool.query(`select id from oidc_payloads where payload->>'accountId' = $1`, [
      account.accountId,
    ]);
    expect(left.rows).toEqual([]);
    const revoked = await database.pool.query('select not_before from token_revocations where key = $1', [
      `account:${account.accountId}`,
    ]);
    expect(revoked.rows[0]?.not_before).toBeInstanceOf(Date);
    expect((await cli('users', 'end-sessions', '--email', 'ghost@example.com')).err).toContain(
      'Account ghost@example.com was not found',
    );
  });

  it('loads the demo data with seed, and never the demo history (that comes with the first start only)', async () => {
    const before = await database.pool.query('select count(*)::int as n from accounts');
    expect(await cli('seed')).toMatchObject({ code: 0, out: 'Demo data loaded.' });
    const { rows } = await database.pool.query('select count(*)::int as n from memberships');
    expect(rows[0].n).toBe(3);
    const after = await database.pool.query('select count(*)::int as n from accounts');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('purges the closed accounts whose grace period is over, and only those, with purge', async () => {
    const due = await accounts.add({ email: 'closed-long-ago@example.com', password: 'Closed-Long-Ago-1!' });
    const waiting = await accounts.add({ email: 'closed-today@example.com', password: 'Closed-Today-Pass-1!' });
    await database.pool.query(
      `insert into account_deletions (subject, requested_at, delete_after) values
         ($1, now() - interval '31 days', now() - interval '1 day'),
         ($2, now(), now() + interval '30 days')`,
      [due.accountId, waiting.accountId],
    );
    await database.pool.query(
      `insert into orders (subject, total_amount, ordered_at, status) values ($1, 10, now(), 'Paid'), ($1, 20, now(), 'Paid')`,
      [due.accountId],
    );
    expect(await cli('purge')).toMatchObject({ code: 0, out: 'Deleted 1 closed account; 2 orders kept anonymised.' });
    expect(await cli('purge')).toMatchObject({ code: 0, out: 'No closed account is due for deletion.' });
    expect((await accounts.list()).map((a) => a.email)).toContain('closed-today@example.com');
    expect((await accounts.list()).map((a) => a.email)).not.toContain('closed-long-ago@example.com');
    expect(await cli('purge', '--now')).toMatchObject({ code: 1 });
  });
});
