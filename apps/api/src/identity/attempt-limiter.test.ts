import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/helper.js';
import { attemptKey, createAttemptLimiter, LONGEST_WINDOW_MS, sweepAttempts, type Limit } from './attempt-limiter.js';
import { createAccountService } from './accounts.service.js';
import { sweepExpiredPayloads } from './oidc-adapter.js';

const database = await testDatabase();
const rowsUnder = async (key: string) =>
  (await database.pool.query<{ n: number }>('select count(*)::int as n from attempt_events where key = $1', [key]))
    .rows[0]!.n;
/** Moves every attempt recorded under the key `ms` into the past, as if that much time had gone by since. */
const ageAttempts = (key: string, ms: number) =>
  database.pool.query(`update attempt_events set at = at - make_interval(secs => $2) where key = $1`, [key, ms / 1000]);

describe('attempt limits kept in PostgreSQL', () => {
  it('reserve exactly max attempts out of 50 sent at once, on two limiters standing for two processes', async () => {
    const limit: Limit = { key: attemptKey('test', 'concurrent'), max: 5, windowMs: 60_000 };
    const first = createAttemptLimiter({ db: database.db });
    const second = createAttemptLimiter({ db: database.db });
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? first : second).reserve([limit])));
    expect(outcomes.filter((o) => o.reserved)).toHaveLength(5);
    expect(await rowsUnder(limit.key)).toBe(5);
  });

  it('reserve under every key or under none, and name the key that is full', async () => {
    const limiter = createAttemptLimiter({ db: database.db });
    const full: Limit = { key: attemptKey('test', 'full'), max: 1, windowMs: 60_000 };
    const open: Limit = { key: attemptKey('test', 'open'), max: 10, windowMs: 60_000 };
    expect((await limiter.reserve([full])).reserved).toBe(true);
    const refused = await limiter.reserve([open, full]);
    expect(refused).toEqual({ reserved: false, refused: full });
    expect(await rowsUnder(open.key)).toBe(0);
  });

  it('forget a released attempt (a success is not a failure) and attempts older than the window', async () => {
    const limiter = createAttemptLimiter({ db: database.db });
    const limit: Limit = { key: attemptKey('test', 'window'), max: 2, windowMs: 60_000 };
    const kept = await limiter.reserve([limit]);
    const released = await limiter.reserve([limit]);
    await limiter.release(released);
    expect(kept.reserved && released.reserved).toBe(true);
    expect(await rowsUnder(limit.key)).toBe(1);
    expect((await limiter.reserve([limit])).reserved).toBe(true);
    expect((await limiter.reserve([limit])).reserved).toBe(false);
    // The window passes on PostgreSQL's clock, which the test moves by ageing the recorded attempts instead of waiting.
    await ageAttempts(limit.key, limit.windowMs - 5_000);
    expect((await limiter.reserve([limit])).reserved).toBe(false);
    await ageAttempts(limit.key, 10_000);
    expect((await limiter.reserve([limit])).reserved).toBe(true);
  });

  /** A sign-in's three limits with room to fail in a test: a pair's 5, an address's 30, an account's 3 in a day. */
  const signInLimits = (name: string, address = '192.0.2.1', accountMax = 3) => ({
    pair: { key: attemptKey('pair', name, address), max: 5, windowMs: 900_000 },
    address: { key: attemptKey('address', address), max: 30, windowMs: 900_000 },
    account: { key: attemptKey('account', name), max: accountMax, windowMs: LONGEST_WINDOW_MS },
  });

  it("hold a sign-in's guess to the account's cap only once its address has failed for the account", async () => {
    const limiter = createAttemptLimiter({ db: database.db });
    // Three failures for the account from three other addresses: its cap is reached.
    for (const elsewhere of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      expect((await limiter.reserveSignIn(signInLimits('capped', elsewhere), 900_000)).reservation.reserved).toBe(true);
    }
    const here = signInLimits('capped');
    const first = await limiter.reserveSignIn(here, 900_000);
    expect(first).toMatchObject({ reservation: { reserved: true }, familiar: false, recent: 3 });
    // That guess failed (it was not released): this address is now familiar, and held to the cap.
    const second = await limiter.reserveSignIn(here, 900_000);
    expect(second).toEqual({ reservation: { reserved: false, refused: here.account }, familiar: true, recent: 0 });
    expect(await rowsUnder(here.account.key)).toBe(4);
    expect(await rowsUnder(here.pair.key)).toBe(1);
  });

  it("count only the account's failures within the recent window before a sign-in's guess", async () => {
    const limiter = createAttemptLimiter({ db: database.db });
    const limits = signInLimits('recent', '192.0.2.1', 10);
    await limiter.reserveSignIn(limits, 900_000);
    await limiter.reserveSignIn(limits, 900_000);
    await ageAttempts(limits.account.key, 600_000);
    await limiter.reserveSignIn(limits, 900_000);
    expect((await limiter.reserveSignIn(limits, 300_000)).recent).toBe(1);
    expect((await limiter.reserveSignIn(limits, 900_000)).recent).toBe(4);
  });

  it('reserve exactly 5 of 50 sign-in guesses for one account from one address sent at once, on two limiters', async () => {
    const limits = signInLimits('concurrent-guesses', '192.0.2.1', 100);
    const limiters = [createAttemptLimiter({ db: database.db }), createAttemptLimiter({ db: database.db })];
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => limiters[i % 2]!.reserveSignIn(limits, 900_000)),
    );
    expect(outcomes.filter((o) => o.reservation.reserved)).toHaveLength(5);
    expect(await rowsUnder(limits.pair.key)).toBe(5);
  });

  it("reserve a sign-in's guess with its account's read as the limiter reserves it alone, found or not, refused or not", async () => {
    const accounts = createAccountService({ db: database.db });
    const email = 'guess-with-account@example.com';
    await accounts.add({ email, password: 'Guess-Pass-42' });
    const limits = signInLimits(email, '192.0.2.9', 100);
    const first = await accounts.reserveSignInWithAccount(email, limits, 900_000);
    expect(first.guess).toMatchObject({ reservation: { reserved: true }, familiar: false, recent: 0 });
    expect(first.read.found).toMatchObject({ email, secondFactor: false, deleteAfter: null });
    expect(await accounts.signInWithPassword(email, 'Guess-Pass-42', first.read)).toMatchObject({ account: { email } });

    // An email with no account: counted all the same, nothing read.
    const nobody = signInLimits('nobody-here@example.com', '192.0.2.9', 100);
    const unknown = await accounts.reserveSignInWithAccount('nobody-here@example.com', nobody, 900_000);
    expect(unknown).toMatchObject({ guess: { reservation: { reserved: true } }, read: { found: undefined } });
    expect(await rowsUnder(nobody.pair.key)).toBe(1);

    // A refused guess still reads the account, for a known browser's second reservation without the account's cap.
    for (let i = 0; i < 4; i++) await accounts.reserveSignInWithAccount(email, limits, 900_000);
    const refused = await accounts.reserveSignInWithAccount(email, limits, 900_000);
    expect(refused.guess.reservation).toEqual({ reserved: false, refused: limits.pair });
    expect(refused.read.found).toMatchObject({ email });
    expect(await rowsUnder(limits.pair.key)).toBe(5);
  });

  const REFUSED_ARGUMENTS =
    "sign_in_reserve takes three keys, limits and windows: the pair's, the address's and the account's";
  it("refuse a sign-in's reservation given other than the pair's, the address's and the account's limits, or a null one", async () => {
    await expect(
      database.pool.query(`select * from sign_in_reserve(array['a'], array[1], array[60], 60)`),
    ).rejects.toThrow(REFUSED_ARGUMENTS);
    // A null limit would be no limit at all.
    await expect(
      database.pool.query(
        `select * from sign_in_reserve(array['a', 'b', 'c'], array[5, null, 100], array[60, 60, 60], 60)`,
      ),
    ).rejects.toThrow(REFUSED_ARGUMENTS);
    expect(await rowsUnder('a')).toBe(0);
  });

  it('store hashes of fixed length, never the email or address itself', () => {
    const key = attemptKey('pair', `${'a'.repeat(6000)}@example.com`, '203.0.113.7');
    expect(key).toMatch(/^pair:[A-Za-z0-9_-]{43}$/);
    expect(attemptKey('account', 'member@example.com')).not.toContain('member');
  });

  it('leave the table bounded: 10,000 failures for distinct emails are gone after a sweep a day later', async () => {
    const limiter = createAttemptLimiter({ db: database.db });
    for (let batch = 0; batch < 100; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          limiter.reserve([
            { key: attemptKey('pair', `spray-${batch}-${i}@example.com`, '198.51.100.1'), max: 5, windowMs: 900_000 },
            { key: attemptKey('account', `spray-${batch}-${i}@example.com`), max: 100, windowMs: LONGEST_WINDOW_MS },
          ]),
        ),
      );
    }
    const count = async () =>
      (await database.pool.query<{ n: number }>('select count(*)::int as n from attempt_events')).rows[0]!.n;
    const before = await count();
    expect(before).toBeGreaterThanOrEqual(20_000);
    // Nothing is within a day yet: a sweep now keeps them all.
    expect(await sweepAttempts(database.db)).toBe(0);
    // A day and a minute later every one of them is past the longest window.
    expect(await sweepAttempts(database.db, Date.now() + LONGEST_WINDOW_MS + 60_000)).toBe(before);
    expect(await count()).toBe(0);
  });
});

describe('the provider store', () => {
  it('sweeps expired entries and keeps live ones', async () => {
    await database.pool.query(
      `insert into oidc_payloads (model, id, payload, expires_at) values
       ('Session', 'old', '{}', now() - interval '1 minute'), ('Session', 'live', '{}', now() + interval '1 hour')`,
    );
    expect(await sweepExpiredPayloads(database.db)).toBe(1);
    const { rows } = await database.pool.query(`select id from oidc_payloads where model = 'Session'`);
    expect(rows.map((r) => r.id)).toEqual(['live']);
  });
});
