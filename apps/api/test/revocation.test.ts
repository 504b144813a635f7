import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountService } from '../src/identity/accounts.service.js';
import { operatorGroups, serverDatabaseEnv, TEST_SECRETS_KEY, testDatabase } from './helper.js';
import { browser, dpopHeaders, refresh, signIn, signOut, signsInSilently } from '@ums/testkit/oidc-browser';
import { dpopKey } from '@ums/testkit/dpop';
import { exited } from '@ums/testkit/server-process';
import { prepareServer } from '@ums/testkit/server-process';
import { waitFor } from './wait-for.js';
import { SOURCES } from './server-process.js';

// Two server processes on one PostgreSQL database, as behind a load balancer: both answer for the same public
// address (the issuer), the provider's state and the revocations are shared through the database.
const database = await testDatabase();
const accounts = createAccountService({ db: database.db });
// One secrets key for both, as every process of one product has.
const shared = { ...serverDatabaseEnv(database), SECRETS_KEY: TEST_SECRETS_KEY.key.toString('hex') };
const first = await prepareServer({ entry: SOURCES, env: shared });
const second = await prepareServer({ entry: SOURCES, env: { ...shared, PUBLIC_URL: first.base } });
const children: ChildProcess[] = [];
const PASSWORD = 'Revoke-Pass-2026!';

beforeAll(async () => {
  children.push(first.start().child, second.start().child);
  await Promise.all([first.waitReady(), second.waitReady()]);
}, 90_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map(exited));
  await Promise.all([first.cleanup(), second.cleanup()]);
});

/** A call to one process, as the browser makes it to the product: its proof names the public address (the first's). */
const call = (base: string, path: string, token: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, {
    ...init,
    headers: {
      ...dpopHeaders(token, init.method ?? 'GET', `${first.base}${path}`),
      'content-type': 'application/json',
      ...init.headers,
    },
  });

/**
 * Milliseconds until the call answers 401, asked again every 25 ms while it does not; how long that takes is what the
 * tests check, so it gives up after 3 s and fails with the last status.
 */
async function refusedAfter(base: string, path: string, token: string): Promise<number> {
  const started = Date.now();
  const status = await waitFor(
    async () => (await call(base, path, token)).status,
    (answer) => answer === 401,
    3000,
  );
  expect(status, 'the token is refused').toBe(401);
  return Date.now() - started;
}

async function newAccount(admin = false) {
  const email = `revoke-${randomBytes(4).toString('hex')}@example.com`;
  await accounts.add({ email, password: PASSWORD, admin });
  return email;
}

describe('revocation across server processes', () => {
  it('refuses a demoted administrator’s token on either process within 1 s; a later token works as a member', async () => {
    await newAccount(true); // someone else stays an administrator: the last one cannot be demoted
    const email = await newAccount(true);
    const tokens = await signIn(first.base, email, PASSWORD);
    expect((await call(second.base, '/api/membership', tokens.access_token)).status).toBe(200);

    await operatorGroups(database.db).revoke(email, 'Admin');
    // Each process learns of the revocation on its own: both within the second, neither waiting for the other.
    const [onSecond, onFirst] = await Promise.all([
      refusedAfter(second.base, '/api/membership', tokens.access_token),
      refusedAfter(first.base, '/api/PaymentHistory', tokens.access_token),
    ]);
    expect(onSecond).toBeLessThan(1000);
    expect(onFirst).toBeLessThan(1000);

    // At once, in the same second as likely as not: the new token names the revocation it came after.
    const renewed = await refresh(second.base, tokens.refresh_token, undefined, first.base);
    expect(renewed.status).toBe(200);
    expect((await call(second.base, '/api/membership', renewed.body.access_token!)).status).toBe(403);
    expect((await call(first.base, '/api/PaymentHistory', renewed.body.access_token!)).status).toBe(200);
  });

  it('refuses on the other process within 1 s the token of a Support user whose role an administrator removed on the first; the renewed token reads no member data', async () => {
    const adminEmail = await newAccount(true);
    const admin = await signIn(first.base, adminEmail, PASSWORD);
    const email = await newAccount();
    await operatorGroups(database.db).grant(email, 'Support');
    const support = await signIn(first.base, email, PASSWORD);
    expect((await call(second.base, '/api/admin/members?limit=5', support.access_token)).status).toBe(200);

    const id = (await accounts.findByEmail(email))!.accountId;
    const removed = await call(first.base, `/api/admin/members/${id}/groups`, admin.access_token, {
      method: 'PUT',
      body: JSON.stringify({ groups: [] }),
    });
    expect(removed.status).toBe(200);
    expect(await refusedAfter(second.base, '/api/admin/members?limit=5', support.access_token)).toBeLessThan(1000);

    const renewed = await refresh(second.base, support.refresh_token, undefined, first.base);
    expect(renewed.status).toBe(200);
    const refused = await call(second.base, '/api/admin/members?limit=5', renewed.body.access_token!);
    expect([refused.status, ((await refused.json()) as { message: string }).message]).toEqual([
      403,
      'Your role does not include member data.',
    ]);
  });

  it('ends a signed-out session everywhere: its access token within 1 s, its refresh token at once', async () => {
    const email = await newAccount();
    const session = await signIn(first.base, email, PASSWORD);
    const other = await signIn(first.base, email, PASSWORD);
    expect((await signOut(first.base, session.go, session.id_token)).status).toBe(303);
    expect(await refusedAfter(second.base, '/api/PaymentHistory', session.access_token)).toBeLessThan(1000);
    expect((await refresh(second.base, session.refresh_token, undefined, first.base)).status).toBe(400);
    // Signing out one browser leaves the member's other devices alone.
    expect((await call(second.base, '/api/PaymentHistory', other.access_token)).status).toBe(200);
  });

  it('ends a device from the security section on one process: the other process refuses its token within 1 s', async () => {
    const email = await newAccount();
    const laptop = await signIn(first.base, email, PASSWORD);
    const phone = await signIn(first.base, email, PASSWORD);
    const devices = (await (await call(first.base, '/api/sessions', laptop.access_token)).json()) as {
      data: { id: string; current: boolean }[];
    };
    const other = devices.data.find((device) => !device.current)!;
    expect(
      (await call(first.base, `/api/sessions/${other.id}`, laptop.access_token, { method: 'DELETE' })).status,
    ).toBe(200);
    expect(await refusedAfter(second.base, '/api/PaymentHistory', phone.access_token)).toBeLessThan(1000);
    expect((await refresh(second.base, phone.refresh_token, undefined, first.base)).status).toBe(400);
    expect(await signsInSilently(second.base, phone.go, first.base)).toBe(false);
    expect((await call(second.base, '/api/PaymentHistory', laptop.access_token)).status).toBe(200);
  });

  it('ends every other session on a password change; the session that made it keeps working on either process', async () => {
    const email = await newAccount();
    const changing = await signIn(first.base, email, PASSWORD);
    const elsewhere = await signIn(first.base, email, PASSWORD);
    const change = await call(second.base, '/api/PasswordReset', changing.access_token, {
      method: 'POST',
      body: JSON.stringify({ previousPassword: PASSWORD, proposedPassword: 'Changed-Pass-2027!' }),
    });
    expect(change.status).toBe(200);

    expect(await refusedAfter(first.base, '/api/PaymentHistory', elsewhere.access_token)).toBeLessThan(1000);
    expect((await refresh(first.base, elsewhere.refresh_token)).status).toBe(400);
    expect(await signsInSilently(first.base, elsewhere.go)).toBe(false);

    expect((await call(first.base, '/api/PaymentHistory', changing.access_token)).status).toBe(200);
    const renewed = await refresh(first.base, changing.refresh_token);
    expect(renewed.status).toBe(200);
    const again = await refresh(second.base, renewed.body.refresh_token!, undefined, first.base);
    expect(again.status).toBe(200);
    expect((await call(second.base, '/api/PaymentHistory', again.body.access_token!)).status).toBe(200);
    expect(await signsInSilently(first.base, changing.go)).toBe(true);
  });

  it('refuses every token of an account whose sessions an operator ended, and of a removed account', async () => {
    const email = await newAccount();
    const before = await signIn(first.base, email, PASSWORD);
    await accounts.endSessions(email);
    expect(await refusedAfter(second.base, '/api/PaymentHistory', before.access_token)).toBeLessThan(1000);
    expect((await refresh(first.base, before.refresh_token)).status).toBe(400);
    expect(await signsInSilently(first.base, before.go)).toBe(false);

    const after = await signIn(first.base, email, PASSWORD, { go: browser() });
    expect((await call(first.base, '/api/PaymentHistory', after.access_token)).status).toBe(200);
    await accounts.remove(email);
    expect(await refusedAfter(first.base, '/api/PaymentHistory', after.access_token)).toBeLessThan(1000);
  });

  it('refuses a DPoP proof replayed to the other process: the proofs used are shared through the database', async () => {
    const email = await newAccount();
    const dpop = await dpopKey();
    const { access_token } = await signIn(first.base, email, PASSWORD, { dpop });
    // Both processes answer for the one public address the proof names (the first's, behind a load balancer).
    const url = `${first.base}/api/PaymentHistory`;
    const headers = { authorization: `DPoP ${access_token}`, dpop: await dpop.proof('GET', url, access_token) };
    expect((await fetch(url, { headers })).status).toBe(200);
    expect((await fetch(`${second.base}/api/PaymentHistory`, { headers })).status).toBe(401);
    const fresh = { authorization: `DPoP ${access_token}`, dpop: await dpop.proof('GET', url, access_token) };
    expect((await fetch(`${second.base}/api/PaymentHistory`, { headers: fresh })).status).toBe(200);
  });

  it('closes an account on one process: every token of it is refused on the other within 1 s, refresh tokens at once', async () => {
    const email = await newAccount();
    const closing = await signIn(first.base, email, PASSWORD);
    const elsewhere = await signIn(first.base, email, PASSWORD);
    const closed = await call(first.base, '/api/me/deletion', closing.access_token, {
      method: 'POST',
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(closed.status).toBe(200);
    expect(await refusedAfter(second.base, '/api/PaymentHistory', elsewhere.access_token)).toBeLessThan(1000);
    expect(await refusedAfter(second.base, '/api/PaymentHistory', closing.access_token)).toBeLessThan(1000);
    expect((await refresh(second.base, elsewhere.refresh_token, undefined, first.base)).status).toBe(400);
  });

  it("an administrator ends a member's sessions or changes their groups on one process: the other refuses the member's token within 1 s", async () => {
    const admin = await signIn(first.base, await newAccount(true), PASSWORD);
    const ended = await newAccount();
    const regrouped = await newAccount();
    const endedToken = (await signIn(first.base, ended, PASSWORD)).access_token;
    const regroupedToken = (await signIn(first.base, regrouped, PASSWORD)).access_token;
    const idOf = async (email: string) => (await accounts.findByEmail(email))!.accountId;

    const end = await call(first.base, `/api/admin/members/${await idOf(ended)}/end-sessions`, admin.access_token, {
      method: 'POST',
      body: '{}',
    });
    expect(end.status).toBe(200);
    expect(await refusedAfter(second.base, '/api/PaymentHistory', endedToken)).toBeLessThan(1000);

    const groups = await call(first.base, `/api/admin/members/${await idOf(regrouped)}/groups`, admin.access_token, {
      method: 'PUT',
      body: JSON.stringify({ groups: ['Admin'] }),
    });
    expect(groups.status).toBe(200);
    expect(await refusedAfter(second.base, '/api/PaymentHistory', regroupedToken)).toBeLessThan(1000);
  });
});
