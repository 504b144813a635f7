import { randomBytes } from 'node:crypto';
import { ENROLMENT_TEXTS, SECOND_FACTOR_TEXTS } from '@ums/contracts/security';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, passkeys } from '../src/db/schema/index.js';
import { createAccountService } from '../src/identity/accounts.service.js';
import { SIGN_IN_ERROR, TOO_MANY_ATTEMPTS } from '../src/identity/pages.js';
import { SIGN_IN_LIMITS } from '../src/identity/sign-in.js';
import { attemptSignIn, authorizeUrl, browser, pkce } from '@ums/testkit/oidc-browser';
import { AUTHORIZATIONS_PER_ADDRESS } from '../src/identity/provider-mount.js';
import { IDENTITY_REQUESTS_AT_ONCE, IDENTITY_REQUESTS_QUEUED_PER_ADDRESS } from '../src/identity/identity-queue.js';
import { providerApp } from './oidc-client.js';
import { waitFor } from './wait-for.js';
import { attemptKey } from '../src/identity/attempt-limiter.js';

const PASSWORD = 'Owner-Pass-42!';
const WRONG = 'Wrong-Pass-1!';
const from = (address: string) => ({ 'x-forwarded-for': address });
const stranger = () => `nobody-${randomBytes(4).toString('hex')}@example.com`;
/** A sign-in that succeeded leaves the sign-in page for the provider's authorization endpoint. */
const signedIn = (response: Response) =>
  response.status === 303 && /\/oidc\/auth\//.test(response.headers.get('location') ?? '');

async function withOwner(env: Record<string, string> = {}) {
  const app = await providerApp(env);
  const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
  await createAccountService({ db: app.database.db }).add({ email, password: PASSWORD });
  return { ...app, email };
}

describe('sign-in attempt limits', () => {
  it('verify at most 5 of 50 wrong guesses sent at once for one account: the other 45 are refused unchecked', async () => {
    const { base, email } = await withOwner();
    const answers = await Promise.all(Array.from({ length: 50 }, () => attemptSignIn(base, email, WRONG)));
    const statuses = answers.map((r) => r.status);
    // 401 is a checked, wrong password; 429 was refused before any password was checked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(45);
    const refused = answers.find((r) => r.status === 429)!;
    expect(await refused.text()).toContain(TOO_MANY_ATTEMPTS);
  });

  it('refuse the 6th wrong guess for one account from one address, but not another account from there', async () => {
    const { base, email } = await withOwner({ TRUST_PROXY: '1' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attemptSignIn(base, email, WRONG, from('203.0.113.5'))).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await attemptSignIn(base, stranger(), WRONG, from('203.0.113.5'))).status).toBe(401);
  });

  it('refuse the 6th wrong guess for an email with no account from one address, as for one with an account', async () => {
    const { base } = await withOwner({ TRUST_PROXY: '1' });
    const nobody = stranger();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attemptSignIn(base, nobody, WRONG, from('203.0.113.6'))).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('check a slowed-down guess against the password set while it waited', async () => {
    const app = await withOwner({ TRUST_PROXY: '1' });
    const { base, email } = app;
    // 8 failures in 15 minutes (from 2 addresses, under each pair's 5): the next guess waits 4 steps of 250 ms.
    const failures = 8;
    for (let i = 0; i < failures; i++) {
      expect((await attemptSignIn(base, email, WRONG, from(`198.51.100.${(i % 2) + 41}`))).status).toBe(401);
    }
    const wait = (failures - SIGN_IN_LIMITS.slowDownAfter + 1) * SIGN_IN_LIMITS.slowDownStepMs;
    const started = Date.now();
    const guess = attemptSignIn(base, email, PASSWORD, from('192.0.2.78'));
    // The guess is reserved (and its account read) before it waits: the password changes once the reservation is in.
    const reservations = () =>
      app.database.pool.query<{ n: number }>(`select count(*)::int as n from attempt_events where key = $1`, [
        attemptKey('pair', email, '192.0.2.78'),
      ]);
    expect((await waitFor(reservations, ({ rows }) => rows[0]!.n === 1)).rows[0]!.n).toBe(1);
    await createAccountService({ db: app.database.db }).setPassword(email, 'Changed-Pass-42!');
    const answer = await guess;
    expect(Date.now() - started).toBeGreaterThanOrEqual(wait);
    expect(answer.status).toBe(401);
    expect(await answer.text()).toContain(SIGN_IN_ERROR);
  });

  it('let the owner sign in from a clean address after 100 failures from other addresses, slowed down', async () => {
    const { base, email } = await withOwner({ TRUST_PROXY: '1' });
    // 20 addresses guess 5 times each, all at once (each guess past the 5th for the account is slowed down).
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => attemptSignIn(base, email, WRONG, from(`198.51.100.${(i % 20) + 1}`))),
    );
    expect(answers.map((r) => r.status)).toEqual(Array<number>(100).fill(401));
    // The account has had its 100 failures today: an address that already failed for it is refused...
    expect((await attemptSignIn(base, email, WRONG, from('198.51.100.1'))).status).toBe(429);
    // ...but the owner, from an address that never failed, signs in; only slower.
    const started = Date.now();
    const owner = await attemptSignIn(base, email, PASSWORD, from('192.0.2.77'));
    expect(signedIn(owner)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it("never lock the owner out: after 150 failures from 30 other addresses, the owner's known browser signs in", async () => {
    const { base, email } = await withOwner({ TRUST_PROXY: '1' });
    const home = from('192.0.2.10');
    const ownersBrowser = browser(home);
    expect(signedIn(await attemptSignIn(base, email, PASSWORD, {}, ownersBrowser))).toBe(true);
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) => attemptSignIn(base, email, WRONG, from(`198.51.100.${(i % 30) + 1}`))),
    );
    // Checked and wrong (401) until the account's daily 100, then refused unchecked (429) at addresses that failed.
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThanOrEqual(SIGN_IN_LIMITS.account.max);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    // The owner mistypes once at home: that address has now failed for the account, so the daily cap applies there...
    expect((await attemptSignIn(base, email, WRONG, {}, ownersBrowser)).status).toBe(401);
    // ...to another browser at the same address, but not to the browser that has signed in to the account before.
    expect((await attemptSignIn(base, email, PASSWORD, home)).status).toBe(429);
    expect(signedIn(await attemptSignIn(base, email, PASSWORD, {}, ownersBrowser))).toBe(true);
  });

  it(`bound the authorization requests one address starts to ${AUTHORIZATIONS_PER_ADDRESS.max} in 15 minutes, counted once for requests sent at once`, async () => {
    const { base } = await withOwner({ TRUST_PROXY: '1' });
    const authorize = (address: string) =>
      fetch(authorizeUrl(base, pkce().challenge), { redirect: 'manual', headers: from(address) });
    // One address may have IDENTITY_REQUESTS_QUEUED_PER_ADDRESS requests waiting for a turn (its next is answered
    // busy), and requests wait only while IDENTITY_REQUESTS_AT_ONCE run: the requests go in waves of at most the two
    // together. The last wave crosses the limit with all of its requests in flight at once.
    const last = IDENTITY_REQUESTS_QUEUED_PER_ADDRESS + 10;
    expect(last).toBeLessThanOrEqual(IDENTITY_REQUESTS_QUEUED_PER_ADDRESS + IDENTITY_REQUESTS_AT_ONCE);
    const waves = [IDENTITY_REQUESTS_QUEUED_PER_ADDRESS, IDENTITY_REQUESTS_QUEUED_PER_ADDRESS, last];
    expect(waves.reduce((sum, n) => sum + n)).toBe(AUTHORIZATIONS_PER_ADDRESS.max + 10);
    const answers: Response[] = [];
    for (const size of waves) {
      answers.push(...(await Promise.all(Array.from({ length: size }, () => authorize('203.0.113.9')))));
    }
    const tally = (some: Response[]) =>
      some.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});
    // 303 to our sign-in page: an interaction was stored; 429: refused before the provider stored anything.
    expect(tally(answers.slice(0, -last))).toEqual({
      303: AUTHORIZATIONS_PER_ADDRESS.max - IDENTITY_REQUESTS_QUEUED_PER_ADDRESS,
    });
    expect(tally(answers.slice(-last))).toEqual({ 303: IDENTITY_REQUESTS_QUEUED_PER_ADDRESS, 429: 10 });
    expect(await answers.find((r) => r.status === 429)!.text()).toContain(TOO_MANY_ATTEMPTS);
    // Another address, and this machine itself, are not held back.
    expect((await authorize('198.51.100.200')).status).toBe(303);
    expect((await fetch(authorizeUrl(base, pkce().challenge), { redirect: 'manual' })).status).toBe(303);
  });

  it('ignore X-Forwarded-For without a trusted proxy: a rotating header does not reset the count', async () => {
    const { base, email } = await withOwner();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await attemptSignIn(base, email, WRONG, from(`203.0.113.${i + 1}`))).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('refuse a 6,000-character email as a wrong sign-in, not a server error', async () => {
    const { base } = await withOwner();
    const response = await attemptSignIn(base, `${'a'.repeat(6000)}@example.com`, WRONG);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain(SIGN_IN_ERROR);
  });

  it('forget the failures of an address once its owner signs in there', async () => {
    const { base, email } = await withOwner();
    for (let i = 0; i < 4; i++) expect((await attemptSignIn(base, email, WRONG)).status).toBe(401);
    expect(signedIn(await attemptSignIn(base, email, PASSWORD))).toBe(true);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await attemptSignIn(base, email, WRONG)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
  });

  it('never count the right password of a closing account as a failure, though the sign-in stops to ask', async () => {
    const { base, email, database } = await withOwner();
    const [owner] = await database.db.select().from(accounts).where(eq(accounts.email, email));
    await database.pool.query(
      `insert into account_deletions (subject, delete_after) values ($1, now() + interval '30 days')`,
      [owner!.accountId],
    );
    // Each right password stops at the question whether to keep the account, and is forgotten as a guess.
    for (let i = 0; i < SIGN_IN_LIMITS.pair.max + 1; i++) {
      const right = await attemptSignIn(base, email, PASSWORD);
      expect(right.status).toBe(200);
      expect(await right.text()).toContain('keep-account');
    }
    expect((await attemptSignIn(base, email, WRONG)).status).toBe(401);
  });

  /** 4 wrong guesses, then the right password, which stops at the page given; then 5 more wrong guesses. */
  async function guessesAround(base: string, email: string, page: string) {
    for (let i = 0; i < 4; i++) expect((await attemptSignIn(base, email, WRONG)).status).toBe(401);
    const right = await attemptSignIn(base, email, PASSWORD);
    expect(right.status).toBe(200);
    expect(await right.text()).toContain(page);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await attemptSignIn(base, email, WRONG)).status);
    return statuses;
  }

  it('forget them as soon as the right password is given, before the second factor is', async () => {
    const { base, email, database } = await withOwner();
    const [owner] = await database.db.select().from(accounts).where(eq(accounts.email, email));
    await database.db.insert(passkeys).values({
      id: `key-${randomBytes(4).toString('hex')}`,
      accountId: owner!.accountId,
      name: 'Laptop',
      publicKey: 'x',
    });
    expect(await guessesAround(base, email, SECOND_FACTOR_TEXTS.title)).toEqual([401, 401, 401, 401, 401]);
  });

  it('forget them as soon as the right password is given, before a required second factor is set up', async () => {
    const { base, email, database } = await withOwner({ MFA_REQUIRED_GROUPS: 'Admin' });
    await database.db
      .update(accounts)
      .set({ groups: ['Admin'] })
      .where(eq(accounts.email, email));
    expect(await guessesAround(base, email, ENROLMENT_TEXTS.title)).toEqual([401, 401, 401, 401, 401]);
  });
});
