import { randomBytes } from 'node:crypto';
import { dpopHeaders, signIn } from '@ums/testkit/oidc-browser';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAccountService } from '../src/identity/accounts.service.js';
import { REVOCATION_MARK_CLAIM } from '../src/identity/revocations.js';
import { operatorGroups } from './helper.js';
import { anotherProcess, providerApp } from './oidc-client.js';
import { waitFor } from './wait-for.js';

// Two API processes on one database, as behind a load balancer (each its own revocation list, told by NOTIFY).
const server = await providerApp();
const { base, database } = server;
const processes = [base, await anotherProcess(server)];

const accounts = createAccountService({ db: database.db });
const PASSWORD = 'Same-Second-2026!';
afterEach(() => vi.useRealTimers());

/** The answer of the process at `at`, called as the browser calls the product (the proof names its public address). */
const statusAt = async (at: string, token: string) =>
  (await fetch(`${at}/api/PaymentHistory`, { headers: dpopHeaders(token, 'GET', `${base}/api/PaymentHistory`) }))
    .status;

/** The moment the account's tokens were last voided, in epoch milliseconds, as PostgreSQL recorded it. */
async function revokedAt(email: string): Promise<number> {
  const { rows } = await database.pool.query<{ at: number }>(
    `select extract(epoch from greatest(r.not_before, r.others_not_before))::float8 * 1000 as at
     from token_revocations r join accounts a on r.key = 'account:' || a.account_id where a.email = $1`,
    [email],
  );
  return rows[0]!.at;
}

/** Signs in with this process's clock at the revocation's own millisecond: the token's iat is the revocation's second. */
async function signInAt(at: number, email: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
  try {
    return await signIn(base, email, PASSWORD);
  } finally {
    vi.useRealTimers();
  }
}

/** On every process: the `working` tokens are answered, the `void` ones refused (within the usual second). */
async function expectOnEveryProcess(working: string[], voided: string[]) {
  for (const process of processes) {
    for (const token of working) expect(await statusAt(process, token), process).toBe(200);
    for (const token of voided) {
      expect(
        await waitFor(
          () => statusAt(process, token),
          (s) => s === 401,
        ),
        process,
      ).toBe(401);
    }
  }
}

describe('a sign-in right after a revocation of its account', () => {
  for (const [event, revoke] of [
    [
      'an operator changes the groups',
      (email: string) =>
        operatorGroups(database.db)
          .grant(email, 'Admin')
          .then(() => undefined),
    ],
    ["an operator ends the account's sessions", (email: string) => accounts.endSessions(email)],
    ['the password is set anew', (email: string) => accounts.setPassword(email, PASSWORD)],
  ] as const) {
    it(`works on both processes when issued in the same second as the revocation (${event}); earlier tokens do not`, async () => {
      const email = `same-second-${randomBytes(4).toString('hex')}@example.com`;
      await accounts.add({ email, password: PASSWORD });
      const before = await signIn(base, email, PASSWORD);
      for (const at of processes) expect(await statusAt(at, before.access_token), at).toBe(200);

      await revoke(email);
      const at = await revokedAt(email);
      const after = await signInAt(at, email);
      const claims = decodeJwt(after.access_token);
      expect(claims.iat).toBe(Math.floor(at / 1000));
      await expectOnEveryProcess([after.access_token], [before.access_token]);
      // It works because it names the revocation it was issued after.
      expect(claims[REVOCATION_MARK_CLAIM]).toBeGreaterThanOrEqual(Math.floor(at * 1000) - 1);
    });
  }

  it('"Sign out everywhere else" in the same second: a new sign-in works on both processes, the other sessions do not', async () => {
    const email = `same-second-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.add({ email, password: PASSWORD });
    const elsewhere = await signIn(base, email, PASSWORD);
    const here = await signIn(base, email, PASSWORD);
    const ended = await fetch(`${base}/api/sessions`, {
      method: 'DELETE',
      headers: {
        ...dpopHeaders(here.access_token, 'DELETE', `${base}/api/sessions`),
        'content-type': 'application/json',
      },
    });
    expect(ended.status).toBe(200);
    const at = await revokedAt(email);
    const fresh = await signInAt(at, email);
    expect(decodeJwt(fresh.access_token).iat).toBe(Math.floor(at / 1000));
    await expectOnEveryProcess([fresh.access_token, here.access_token], [elsewhere.access_token]);
  });
});
