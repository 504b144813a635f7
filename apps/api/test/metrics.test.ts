import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { attemptSignIn, dpopHeaders, signIn, signOut } from '@ums/testkit/oidc-browser';
import { createAccountService } from '../src/identity/accounts.service.js';
import { providerApp } from './oidc-client.js';

const { base, state, database } = await providerApp();
const accounts = createAccountService({ db: database.db });
const PASSWORD = 'Metrics-Pass-2026!';

/** One sample of the text format, e.g. value('ums_sign_ins_total', { outcome: 'failure' }). */
async function value(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const text = await state.app.metrics.registry.metrics();
  const wanted = Object.entries(labels)
    .map(([key, v]) => `${key}="${v}"`)
    .sort();
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '').split(',').filter(Boolean).sort();
    if (have.length === wanted.length && have.every((pair, i) => pair === wanted[i])) return Number(match[3]);
  }
  return undefined;
}

const call = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${base}/api${path}`, {
    ...init,
    headers: {
      ...dpopHeaders(token, init.method ?? 'GET', `${base}/api${path}`),
      'content-type': 'application/json',
      ...init.headers,
    },
  });

describe('metrics after a known sequence of calls', () => {
  it('count requests by route and status with their latency, sign-ins by outcome, refusals and revocations', async () => {
    const email = `metrics-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.add({ email, password: PASSWORD });
    for (let i = 0; i < 2; i++) expect((await attemptSignIn(base, email, 'Wrong-Guess-2026!')).status).toBe(401);
    const session = await signIn(base, email, PASSWORD);
    for (let i = 0; i < 3; i++) expect((await call('/userdetails/', session.access_token)).status).toBe(200);
    expect((await call('/membership', session.access_token)).status).toBe(403);
    const wrongChange = () =>
      call('/PasswordReset', session.access_token, {
        method: 'POST',
        body: JSON.stringify({ previousPassword: 'Not-It-2026!', proposedPassword: 'Next-Pass-2027!' }),
      });
    const changes = [];
    for (let i = 0; i < 6; i++) changes.push((await wrongChange()).status);
    expect(changes).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await signOut(base, session.go, session.id_token)).status).toBe(303);
    // The sign-out reaches the API as an event, so a read may still be answered before it lands: those count too.
    let answeredAfterSignOut = 0;
    await expect
      .poll(async () => {
        const status = (await call('/userdetails/', session.access_token)).status;
        if (status === 200) answeredAfterSignOut += 1;
        return status;
      })
      .toBe(401);

    expect(await value('ums_sign_ins_total', { outcome: 'failure' })).toBe(2);
    expect(await value('ums_sign_ins_total', { outcome: 'success' })).toBe(1);
    expect(await value('ums_attempt_limit_refusals_total', { action: 'password-change' })).toBe(1);
    expect(await value('ums_http_requests_total', { method: 'GET', route: '/api/userdetails/', status: '200' })).toBe(
      3 + answeredAfterSignOut,
    );
    expect(await value('ums_http_requests_total', { method: 'GET', route: '/api/membership', status: '403' })).toBe(1);
    expect(
      await value('ums_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/userdetails/',
        status: '200',
      }),
    ).toBe(3 + answeredAfterSignOut);
    expect(await value('ums_http_requests_total', { method: 'POST', route: '/api/PasswordReset', status: '429' })).toBe(
      1,
    );
    // The provider's own endpoints count under one route, never one series per address.
    expect(await value('ums_http_requests_total', { method: 'POST', route: '/oidc/*', status: '200' })).toBeGreaterThan(
      0,
    );
    expect(await value('ums_revocations_learnt_total', { scope: 'grant' })).toBeGreaterThanOrEqual(1);
    expect(await value('ums_revoked_tokens_refused_total')).toBeGreaterThanOrEqual(1);
    expect(await value('ums_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    expect(await value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('report what each answer cache keeps, the one a list was just read into grown by its answer', async () => {
    const email = `metrics-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.add({ email, password: PASSWORD });
    const session = await signIn(base, email, PASSWORD);
    const before = {
      entries: (await value('ums_cache_entries', { cache: 'member-lists' })) ?? 0,
      bytes: (await value('ums_cache_bytes', { cache: 'member-lists' })) ?? 0,
    };
    const answer = await call('/PaymentHistory?limit=5', session.access_token);
    expect(answer.status).toBe(200);
    const body = await answer.text();
    expect(await value('ums_cache_entries', { cache: 'member-lists' })).toBe(before.entries + 1);
    expect(await value('ums_cache_bytes', { cache: 'member-lists' })).toBeGreaterThan(before.bytes + body.length);
    // Every cache is reported, whether or not it holds anything yet.
    for (const cache of ['catalog', 'audit', 'directory', 'business-metrics', 'dpop-tokens', 'dpop-proof-keys']) {
      expect(await value('ums_cache_bytes', { cache })).not.toBeUndefined();
    }
  });

  it('count 40 requests answered at once exactly 40 times', async () => {
    const email = `metrics-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.add({ email, password: PASSWORD });
    const { access_token } = await signIn(base, email, PASSWORD);
    const labels = { method: 'GET', route: '/api/autologin', status: '404' };
    const before = (await value('ums_http_requests_total', labels)) ?? 0;
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async () => (await call('/autologin', access_token)).status),
    );
    expect(statuses.every((status) => status === 404)).toBe(true);
    await expect.poll(() => value('ums_http_requests_total', labels)).toBe(before + 40);
    expect(await value('ums_http_request_duration_seconds_count', labels)).toBe(before + 40);
  });
});
