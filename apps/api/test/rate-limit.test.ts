import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { attemptSignIn, providerApp } from './oidc-client.js';

const rotating = () => ({ 'x-forwarded-for': `203.0.113.${randomBytes(1)[0]}` });
const stranger = () => `nobody-${randomBytes(4).toString('hex')}@example.com`;

describe('sign-in rate limits against a client that rotates X-Forwarded-For', () => {
  it('without a trusted proxy the header is ignored: the 6th failure from one address answers 429', async () => {
    const { base } = await providerApp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await attemptSignIn(base, stranger(), 'Wrong-Pass-1!', rotating())).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('behind a trusted proxy each forwarded address counts on its own, and one address is still limited', async () => {
    const { base } = await providerApp({ TRUST_PROXY: 'true' });
    for (let i = 0; i < 6; i++) {
      expect((await attemptSignIn(base, stranger(), 'Wrong-Pass-1!', rotating())).status).toBe(401);
    }
    const fixed = { 'x-forwarded-for': '198.51.100.7' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attemptSignIn(base, stranger(), 'Wrong-Pass-1!', fixed)).status);
    expect(statuses.at(-1)).toBe(429);
  });
});
