import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { testConfig, testDatabase, testSecrets } from '../../test/helper.js';
import { createAccountService } from './accounts.service.js';
import { createAttemptLimiter } from './attempt-limiter.js';
import { createFactorService } from './factors.js';
import { createSecurityService } from './security.service.js';

const STEP_MS = 30_000;
const database = await testDatabase();
const secrets = testSecrets(database.db);
const accounts = createAccountService({ db: database.db });

/** A clock that gives its readings in turn, then keeps giving the last one. */
function readings(...times: number[]) {
  const left = [...times];
  return {
    clock: () => (left.length > 1 ? left.shift()! : left[0]!),
    set: (...next: number[]) => left.splice(0, left.length, ...next),
  };
}

describe("an authenticator code's step", () => {
  it('is the one the clock read when the code was checked, even when the clock moves into the next step meanwhile', async () => {
    const time = readings(0);
    const factors = createFactorService({
      db: database.db,
      secrets,
      security: createSecurityService({
        db: database.db,
        config: testConfig(),
        secrets,
      }),
      limiter: createAttemptLimiter({ db: database.db }),
      clock: time.clock,
    });
    const account = await accounts.add({ email: 'clock@example.com', password: 'Clock-Steps-2026!' });
    const { secret } = await factors.startTotp(account.accountId, account.email);
    const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    const codeOf = (step: number) => app.generate({ timestamp: step * STEP_MS });
    const step = 59_000_000; // Some step in 2026.
    const origin = { ipAddress: '127.0.0.1', userAgent: 'test' };
    time.set((step - 10) * STEP_MS);
    const confirmed = await factors.confirmTotp(account.accountId, account.email, codeOf(step - 10), origin);
    expect(confirmed.recoveryCodes).toHaveLength(10);

    // The code of `step` is checked in its last millisecond; any later reading of the clock is in the next step.
    time.set(step * STEP_MS + STEP_MS - 1, (step + 1) * STEP_MS + 1);
    expect(await factors.verifyTotp(account.accountId, account.email, codeOf(step))).toBe('ok');
    // So the step spent is `step`: the next step's own code still works, once, and `step`'s code no longer does.
    expect(await factors.verifyTotp(account.accountId, account.email, codeOf(step + 1))).toBe('ok');
    expect(await factors.verifyTotp(account.accountId, account.email, codeOf(step + 1))).toBe('wrong');
    expect(await factors.verifyTotp(account.accountId, account.email, codeOf(step))).toBe('wrong');
    const { rows } = await database.pool.query<{ step: string }>(
      'select step from totp_used_steps where account_id = $1 order by step',
      [account.accountId],
    );
    expect(rows.map((row) => Number(row.step))).toEqual([step - 10, step, step + 1]);
  });
});
