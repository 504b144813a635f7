import { describe, expect, it } from 'vitest';
import { signIn } from '@ums/testkit/oidc-browser';
import { createAccountService } from '../src/identity/accounts.service.js';
import { IDENTITY_REQUESTS_AT_ONCE } from '../src/identity/identity-queue.js';
import { providerApp } from './oidc-client.js';

const { base, database } = await providerApp();
const accounts = createAccountService({ db: database.db });
const PASSWORD = 'Queue-Pass-2026!';

describe('identity requests taking turns on a real server', () => {
  it(`completes ${3 * IDENTITY_REQUESTS_AT_ONCE} sign-ins started at once, more than its turns, each turn handed on`, async () => {
    const emails = Array.from({ length: 3 * IDENTITY_REQUESTS_AT_ONCE }, (_, i) => `queue-${i}@example.com`);
    for (const email of emails) await accounts.add({ email, password: PASSWORD });
    // Each password waits for the hash queue while holding its turn: the requests behind them must wait for turns.
    const sessions = await Promise.all(emails.map((email) => signIn(base, email, PASSWORD)));
    expect(sessions.every((session) => typeof session.access_token === 'string')).toBe(true);
  });
});
