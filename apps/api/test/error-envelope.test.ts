import { dpopKey } from '@ums/testkit/dpop';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/env.js';
import { createDatabase } from '../src/db/client.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../src/plugins/errors.js';
import { DATABASE_UNAVAILABLE } from '../src/plugins/http-errors.js';
import { paths } from '../src/runtime.js';
import { ADMIN, MEMBER, provingPossession, testDatabase, testKeys, testSecrets } from './helper.js';

const SERVER_ERROR = 'Something went wrong on our side. Please try again later.';
const keys = await testKeys();

/** The product on a database that fails in the given way. */
async function appOn(database: ReturnType<typeof createDatabase>) {
  const config = loadConfig({}, { catalogFile: paths.catalogFile });
  const app = provingPossession(
    await buildApp({ config, db: database.db, secrets: testSecrets(database.db), keys: keys.keys, logger: false }),
    keys.dpop,
    config.publicUrl,
  );
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.pool.end().catch(() => undefined);
  });
  return app;
}

/** The product started on a working database (its revocation list loaded), whose every statement then fails so. */
async function failingAfterStart(failure: () => Error) {
  const database = createDatabase((await testDatabase()).url);
  const app = await appOn(database);
  const fail = () => Promise.reject(failure());
  Object.assign(database.pool, { query: fail, connect: fail });
  return app;
}

// PostgreSQL dies under the running server: node-postgres's words for a connection lost mid-statement.
const unreachable = await failingAfterStart(() => new Error('Connection terminated unexpectedly'));
// A bug inside each handler's work: a programming error from every statement.
const buggy = await failingAfterStart(() => new TypeError("Cannot read properties of undefined (reading 'rows')"));

type App = typeof unreachable;
const routesOf = (app: App) =>
  app.routeTable
    .filter((r) => r.url.startsWith('/api') && r.method !== 'HEAD' && !r.url.startsWith('/api/docs'))
    .map((r) => `${r.method} ${r.url}`);

const MEMBER_ID = '00000000-0000-4000-8000-000000000001';
const PASSWORD = 'Old-Pass-2026!';
const link = { productId: 1001, membershipId: 1 };
const packageProduct = { discountPackageId: 1, productId: 1001 };
/**
 * A request each route of the authorization matrix accepts (its input valid), so the failure comes from inside its
 * handler; a route added to the product fails this test until it is given one here.
 */
const REQUESTS: Record<string, { url: string; body?: unknown }> = {
  'GET /api/health': { url: '/api/health' },
  'GET /api/ready': { url: '/api/ready' },
  'GET /api/config': { url: '/api/config' },
  'GET /api/test/auth': { url: '/api/test/auth' },
  'GET /api/autologin': { url: '/api/autologin' },
  'GET /api/userdetails/': { url: '/api/userdetails/' },
  'POST /api/userdetails/internal': { url: '/api/userdetails/internal', body: { firstName: 'Morgan' } },
  'POST /api/PasswordReset': {
    url: '/api/PasswordReset',
    body: { previousPassword: PASSWORD, proposedPassword: 'Changed-Pass-2027!' },
  },
  'GET /api/sessions': { url: '/api/sessions' },
  'DELETE /api/sessions': { url: '/api/sessions' },
  'DELETE /api/sessions/:id': { url: '/api/sessions/session-1' },
  'GET /api/activity': { url: '/api/activity' },
  'GET /api/security/factors': { url: '/api/security/factors' },
  'POST /api/security/totp/setup': { url: '/api/security/totp/setup', body: {} },
  'POST /api/security/totp': { url: '/api/security/totp', body: { code: '123456' } },
  'DELETE /api/security/totp': { url: '/api/security/totp' },
  'POST /api/security/recovery-codes': { url: '/api/security/recovery-codes', body: {} },
  'POST /api/security/passkeys/options': { url: '/api/security/passkeys/options', body: {} },
  'POST /api/security/passkeys': {
    url: '/api/security/passkeys',
    // A response naming a challenge, so the handler reaches the database to spend it.
    body: {
      response: {
        id: 'credential-1',
        rawId: 'credential-1',
        type: 'public-key',
        response: {
          clientDataJSON: Buffer.from('{"type":"webauthn.create","challenge":"abc"}').toString('base64url'),
          attestationObject: '',
        },
      },
      name: 'Laptop',
    },
  },
  'PATCH /api/security/passkeys/:id': { url: '/api/security/passkeys/credential-1', body: { name: 'Laptop' } },
  'DELETE /api/security/passkeys/:id': { url: '/api/security/passkeys/credential-1' },
  'GET /api/PaymentHistory/:orderId/receipt': { url: '/api/PaymentHistory/1/receipt' },
  'GET /api/PaymentHistory/receipts': { url: '/api/PaymentHistory/receipts?year=2026' },
  'GET /api/me/export': { url: '/api/me/export' },
  'POST /api/me/deletion': { url: '/api/me/deletion', body: { password: PASSWORD } },
  'GET /api/me/email-change': { url: '/api/me/email-change' },
  'POST /api/me/email-change': {
    url: '/api/me/email-change',
    body: { newEmail: 'moved@example.com', password: PASSWORD },
  },
  'POST /api/me/email-change/resend': { url: '/api/me/email-change/resend', body: {} },
  'DELETE /api/me/email-change': { url: '/api/me/email-change' },
  'GET /api/admin/members': { url: '/api/admin/members' },
  'GET /api/admin/members/:id': { url: `/api/admin/members/${MEMBER_ID}` },
  'GET /api/admin/members/:id/orders': { url: `/api/admin/members/${MEMBER_ID}/orders` },
  'GET /api/admin/members/:id/activity': { url: `/api/admin/members/${MEMBER_ID}/activity` },
  'POST /api/admin/members/:id/end-sessions': { url: `/api/admin/members/${MEMBER_ID}/end-sessions` },
  'POST /api/admin/members/:id/reset-sign-in-methods': {
    url: `/api/admin/members/${MEMBER_ID}/reset-sign-in-methods`,
  },
  'PUT /api/admin/members/:id/groups': { url: `/api/admin/members/${MEMBER_ID}/groups`, body: { groups: ['Admin'] } },
  'GET /api/admin/audit': { url: '/api/admin/audit' },
  'POST /api/admin/audit/:id/revert': { url: '/api/admin/audit/1/revert' },
  'GET /api/UserSubscriptions': { url: '/api/UserSubscriptions' },
  'DELETE /api/UserSubscriptions/:id': { url: '/api/UserSubscriptions/1' },
  'GET /api/PaymentHistory': { url: '/api/PaymentHistory' },
  'GET /api/admin/overview': { url: '/api/admin/overview' },
  'GET /api/admin/metrics': { url: '/api/admin/metrics' },
  'GET /api/membership': { url: '/api/membership' },
  'GET /api/membership/:id': { url: '/api/membership/1' },
  'POST /api/membership': { url: '/api/membership', body: { name: 'Starter', productId: 1003 } },
  'PUT /api/membership/:id': { url: '/api/membership/1', body: { name: 'Starter', productId: 1003 } },
  'DELETE /api/membership/:id': { url: '/api/membership/1' },
  'GET /api/discountPackage': { url: '/api/discountPackage' },
  'GET /api/discountPackage/:id': { url: '/api/discountPackage/1' },
  'POST /api/discountPackage': { url: '/api/discountPackage', body: { name: 'Seniors', description: '' } },
  'PUT /api/discountPackage/:id': { url: '/api/discountPackage/1', body: { name: 'Seniors', description: '' } },
  'DELETE /api/discountPackage/:id': { url: '/api/discountPackage/1' },
  'PUT /api/discountPackageProduct': { url: '/api/discountPackageProduct', body: { ...packageProduct, price: 1 } },
  'POST /api/discountPackageProduct': { url: '/api/discountPackageProduct', body: packageProduct },
  'DELETE /api/discountPackageProduct': { url: '/api/discountPackageProduct', body: packageProduct },
  'GET /api/product': { url: '/api/product' },
  'GET /api/product/refresh': { url: '/api/product/refresh' },
  'POST /api/product/refresh': { url: '/api/product/refresh' },
  'GET /api/promotionalProduct': { url: '/api/promotionalProduct' },
  'GET /api/promotionalProduct/:membershipId': { url: '/api/promotionalProduct/1' },
  'POST /api/promotionalProduct': { url: '/api/promotionalProduct', body: link },
  'POST /api/promotionalProduct/batch': { url: '/api/promotionalProduct/batch', body: [link] },
  'DELETE /api/promotionalProduct': { url: '/api/promotionalProduct', body: link },
};
/** Routes whose handlers never touch the database (readiness answers its own words about it, in its own shape). */
const WITHOUT_DATABASE = new Set([
  'GET /api/health',
  'GET /api/ready',
  'GET /api/config',
  'GET /api/test/auth',
  'GET /api/autologin',
]);

type Answer = { route: string; response: LightMyRequestResponse };
/** Every route called as an administrator whose token names its session, so every handler may run. */
async function callEvery(app: App) {
  const token = await keys.token({ ...ADMIN, grant_id: 'grant-1' });
  const answers: Answer[] = [];
  for (const route of routesOf(app)) {
    const request = REQUESTS[route];
    if (!request) throw new Error(`No request written for ${route}`);
    const response = await app.inject({
      method: route.split(' ')[0] as 'GET',
      url: request.url,
      headers: {
        authorization: `DPoP ${token}`,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
    });
    answers.push({ route, response });
  }
  return answers;
}

/** Each route's status, or the one given for all of them: compared whole, a failure names every route that differs. */
const statuses = (answers: Answer[], status?: number) =>
  Object.fromEntries(answers.map(({ route, response }) => [route, status ?? response.statusCode]));

/** The specification's error envelope, naming the request the X-Request-Id header names. */
function expectEnvelope(route: string, response: LightMyRequestResponse, message?: string) {
  const body = response.json() as Record<string, unknown>;
  expect(body, route).toMatchObject({
    isError: true,
    message: message ?? expect.any(String),
    data: expect.any(Array),
    requestId: response.headers['x-request-id'],
  });
  expect(
    Object.keys(body).filter((key) => !['isError', 'message', 'data', 'errors', 'requestId'].includes(key)),
    route,
  ).toEqual([]);
  expect(String(response.headers['content-type']), route).toMatch(/^application\/json/);
}

describe('every error on every route leaves as the envelope with the request id', () => {
  it('has a valid request written for every route of the product', () => {
    expect(routesOf(unreachable).sort()).toEqual(Object.keys(REQUESTS).sort());
  });

  it('with the database down: every route that needs it answers 503, the envelope and Retry-After', async () => {
    const answers = (await callEvery(unreachable)).filter(({ route }) => !WITHOUT_DATABASE.has(route));
    expect(statuses(answers)).toEqual(statuses(answers, 503));
    for (const { route, response } of answers) {
      expectEnvelope(route, response, DATABASE_UNAVAILABLE);
      expect(response.headers['retry-after'], route).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    }
  });

  it('with a bug inside the handlers: every route answers 500, the envelope with a plain message, nothing of the cause', async () => {
    const answers = (await callEvery(buggy)).filter(({ route }) => !WITHOUT_DATABASE.has(route));
    expect(statuses(answers)).toEqual(statuses(answers, 500));
    for (const { route, response } of answers) {
      expectEnvelope(route, response, SERVER_ERROR);
      expect(response.body, route).not.toContain('rows');
      expect(response.headers['retry-after'], route).toBeUndefined();
    }
  });

  it('a DPoP-bound read whose proof cannot be recorded (database down) answers 503, not a serialisation failure', async () => {
    const key = await dpopKey();
    const token = await keys.token({ ...MEMBER, cnf: { jkt: key.jkt } });
    for (const url of ['/api/userdetails/', '/api/UserSubscriptions', '/api/test/auth']) {
      const response = await unreachable.inject({
        url,
        headers: {
          authorization: `DPoP ${token}`,
          dpop: await key.proof('GET', `http://localhost:8080${url}`, token),
        },
      });
      expect(response.statusCode, url).toBe(503);
      expectEnvelope(url, response, DATABASE_UNAVAILABLE);
      expect(response.headers['retry-after'], url).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    }
  });

  it('an unknown address answers 404 in the envelope too', async () => {
    const response = await unreachable.inject({ url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expectEnvelope('GET /api/no-such-thing', response, 'No such address: GET /api/no-such-thing');
  });
});
