import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptSignIn, dpopHeaders, refresh, signIn, signOut } from '@ums/testkit/oidc-browser';
import { exited } from '@ums/testkit/server-process';
import { serializeError } from '../src/plugins/log-redaction.js';
import { freePort } from '../src/net.js';
import { testApp } from './helper.js';
import { serverProcess } from './server-process.js';

const MEMBER_EMAIL = 'member@example.com';
const MEMBER_PASSWORD = 'Logged-Never-2026!';
const NEW_PASSWORD = 'Also-Never-Logged-2027!';
const metricsPort = await freePort();
const server = await serverProcess({
  // Every address for the public port, as in production behind a load balancer.
  HOST: '0.0.0.0',
  METRICS_PORT: String(metricsPort),
  LOG_LEVEL: 'info',
  DEMO_ADMIN_PASSWORD: 'Admin-Logs-2026!',
  DEMO_MEMBER_PASSWORD: MEMBER_PASSWORD,
});
let running: ReturnType<typeof server.start>;

beforeAll(async () => {
  running = server.start();
  await server.waitReady();
}, 90_000);

afterAll(async () => {
  running.child.kill('SIGTERM');
  await exited(running.child);
});

const api = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${server.base}/api${path}`, {
    ...init,
    headers: {
      ...dpopHeaders(token, init.method ?? 'GET', `${server.base}/api${path}`),
      'content-type': 'application/json',
      ...init.headers,
    },
  });

/** The IPv4 addresses a TCP port of this machine listens on, as the kernel lists them (/proc/net/tcp). */
async function listeningAddresses(port: number): Promise<string[]> {
  const table = await fs.readFile('/proc/net/tcp', 'utf8');
  const LISTEN = '0A';
  return table
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter(
      (cells) => cells[1]?.endsWith(`:${port.toString(16).toUpperCase().padStart(4, '0')}`) && cells[3] === LISTEN,
    )
    .map((cells) => {
      const hex = cells[1]!.split(':')[0]!;
      // Little-endian bytes: 0100007F is 127.0.0.1.
      return [6, 4, 2, 0].map((at) => parseInt(hex.slice(at, at + 2), 16)).join('.');
    });
}

/** The JSON log lines the server wrote (its own "[ums]" lines aside). */
const logLines = () =>
  running
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { reqId?: string; msg?: string; res?: { statusCode?: number } });

describe('request ids', () => {
  it('are on every answer, in error envelopes and on the log lines of their request', async () => {
    const missing = await fetch(`${server.base}/api/nothing-here`);
    const id = missing.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await missing.json()).toMatchObject({ isError: true, requestId: id });
    // The provider's answers (which bypass Fastify's reply) and successful API answers carry one too.
    const discovery = await fetch(`${server.base}/oidc/.well-known/openid-configuration`);
    expect(discovery.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const health = await fetch(`${server.base}/api/health`);
    expect(health.headers.get('x-request-id')).not.toBe(id);
    await expect
      .poll(() =>
        logLines()
          .filter((line) => line.reqId === id)
          .map((line) => line.msg),
      )
      .toEqual(['incoming request', 'request completed']);
  });

  it("ignore a caller's X-Request-Id unless a trusted proxy sends it, and then only one that looks like an id", async () => {
    const direct = await fetch(`${server.base}/api/health`, { headers: { 'x-request-id': 'chosen-by-caller' } });
    expect(direct.headers.get('x-request-id')).not.toBe('chosen-by-caller');

    const proxied = await testApp({ env: { TRUST_PROXY: '1' } });
    const kept = await proxied.app.inject({ url: '/api/health', headers: { 'x-request-id': 'lb-7f3a.42' } });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a.42');
    const forged = await proxied.app.inject({
      url: '/api/membership',
      headers: { 'x-request-id': 'x" injected="1' },
    });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(forged.json()).toMatchObject({ requestId: forged.headers['x-request-id'] });
  });
});

describe('the log', () => {
  it("holds no token, password, email or personal detail after a member's whole visit", async () => {
    // A wrong password first, then a visit: read, save personal details, change the password, renew, sign out.
    expect((await attemptSignIn(server.base, MEMBER_EMAIL, 'Wrong-Guess-2026!')).status).toBe(401);
    const session = await signIn(server.base, MEMBER_EMAIL, MEMBER_PASSWORD);
    expect((await api('/userdetails/', session.access_token)).status).toBe(200);
    const saved = await api('/userdetails/internal', session.access_token, {
      method: 'POST',
      body: JSON.stringify({
        firstName: 'Zebulon',
        lastName: 'Quixley',
        email: MEMBER_EMAIL,
        phoneNumber: '+1 555 0199',
        birthdate: '1987-06-05',
      }),
    });
    expect(saved.status).toBe(200);
    const refused = await api('/userdetails/internal', session.access_token, {
      method: 'POST',
      body: JSON.stringify({ firstName: 'Zebulon', email: 'not-an-email-Quixley' }),
    });
    expect(refused.status).toBe(400);
    const changed = await api('/PasswordReset', session.access_token, {
      method: 'POST',
      body: JSON.stringify({ previousPassword: MEMBER_PASSWORD, proposedPassword: NEW_PASSWORD }),
    });
    expect(changed.status).toBe(200);
    const renewed = await refresh(server.base, session.refresh_token);
    expect(renewed.status).toBe(200);
    expect((await signOut(server.base, session.go, session.id_token)).status).toBe(303);

    // The request log (JSON lines); the start-up lines that show the demo accounts' first passwords once are not it.
    const log = running
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .join('\n');
    expect(log).toContain('request completed');
    for (const secret of [
      MEMBER_EMAIL,
      MEMBER_PASSWORD,
      NEW_PASSWORD,
      'Wrong-Guess-2026!',
      session.access_token,
      session.refresh_token,
      session.id_token,
      renewed.body.access_token!,
      renewed.body.refresh_token!,
      'Zebulon',
      'Quixley',
      '555 0199',
      '1987-06-05',
    ]) {
      expect(log.includes(secret), `the log contains ${secret.slice(0, 24)}`).toBe(false);
    }
  });

  it('logs a failed query without the values it was given (drizzle puts them in the message)', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      detail: 'Key (email)=(someone@example.com) already exists.',
    });
    const failed = new Error(
      'Failed query: insert into "user_details" ("first_name", "email") values ($1, $2)\nparams: Zebulon,\nsomeone@example.com',
      { cause },
    );
    const logged = JSON.stringify(serializeError(failed));
    expect(logged).toContain('insert into \\"user_details\\"');
    expect(logged).toContain('params: [redacted]');
    expect(logged).toContain('23505');
    expect(logged).not.toContain('Zebulon');
    expect(logged).not.toContain('someone@example.com');
  });
});

describe('the metrics port', () => {
  it('answers GET /metrics in Prometheus text on METRICS_PORT, and the public port never shows them', async () => {
    await fetch(`${server.base}/api/health`);
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await metrics.text();
    expect(text).toMatch(/^ums_http_requests_total\{method="GET",route="\/api\/health",status="200"\} [1-9]/m);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    const publicAnswer = await fetch(`${server.base}/metrics`);
    expect(await publicAnswer.text()).not.toContain('ums_http_requests_total');
    expect(running.output()).toContain(`[ums] Metrics: http://127.0.0.1:${metricsPort}/metrics`);
  });

  it('listens on this machine only (127.0.0.1) while the public port listens on every address', async () => {
    expect(await listeningAddresses(metricsPort)).toEqual(['127.0.0.1']);
    expect(await listeningAddresses(server.port)).toEqual(['0.0.0.0']);
  });
});
