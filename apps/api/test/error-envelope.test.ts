import { dpopKey } from '@ums/testkit/dpop';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/env.js';
import { createDatabase } from '../src/db/client.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../src/plugins/errors.js';
import { DATABASE_UNAVAILABLE } from '../src/plugins/http-errors.js';
import { paths } from '../src/runtime.js';
import { ADMIN, MEMBER, testDatabase, testKeys } from './helper.js';

const SERVER_ERROR = 'Something went wrong on our side. Please try again later.';
const keys = await testKeys();

/** The product on a database that fails in the given way. */
async function appOn(database: ReturnType<typeof createDatabase>) {
  const app = await buildApp({
    config: loadConfig({}, { catalogFile: paths.catalogFile }),
    db: database.db,
    keys: keys.keys,
    logger: false,
  });
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
  app.routeTable.filter((r) => r.url.startsWith('/api') && r.method !== 'HEAD' && !r.url.startsWith('/api/docs'));
/** Routes that never touch the database, or answer in their own words when it is down (health, readiness). */
const WITHOUT_DATABASE = new Set(['GET /api/health', 'GET /api/ready', 'GET /api/config', 'GET /api/test/auth']);

async function callEvery(app: App, headers: () => Promise<Record<string, string>>) {
  const answers: { route: string; response: LightMyRequestResponse }[] = [];
  for (const route of routesOf(app)) {
    const url = route.url.replace(':membershipId', '1').replace(':orderId', '1').replace(':id', '1');
    const response = await app.inject({
      method: route.method as 'GET',
      url,
      headers: { ...(await headers()), 'content-type': 'application/json' },
      payload:
        route.method === 'GET'
          ? undefined
          : JSON.stringify({ name: 'Changed', productId: 1001, membershipId: 1, discountPackageId: 1, price: 1 }),
    });
    answers.push({ route: `${route.method} ${route.url}`, response });
  }
  return answers;
}

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
  for (const [who, claims, reachesTheDatabase] of [
    [
      'an administrator',
      ADMIN,
      ['GET /api/membership', 'DELETE /api/membership/:id', 'GET /api/product', 'POST /api/admin/audit/:id/revert'],
    ],
    [
      'a member',
      MEMBER,
      [
        'GET /api/userdetails/',
        'POST /api/userdetails/internal',
        'GET /api/UserSubscriptions',
        'GET /api/PaymentHistory',
      ],
    ],
  ] as const) {
    it(`with the database down, as ${who}: 503, the envelope and Retry-After wherever the database is needed`, async () => {
      const answers = await callEvery(unreachable, async () => ({
        authorization: `Bearer ${await keys.token(claims)}`,
      }));
      const unavailable: string[] = [];
      for (const { route, response } of answers) {
        if (WITHOUT_DATABASE.has(route)) continue;
        // Refused (403 for a member's admin call), refused input (400), or the database: never a 500.
        expect(response.statusCode, route).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, route).not.toBe(500);
        expectEnvelope(route, response);
        if (response.statusCode === 503) {
          unavailable.push(route);
          expectEnvelope(route, response, DATABASE_UNAVAILABLE);
          expect(response.headers['retry-after'], route).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
        }
      }
      expect(unavailable).toEqual(expect.arrayContaining([...reachesTheDatabase]));
    });
  }

  it('with a bug inside the handlers: 500, the envelope with a plain message, nothing of the cause', async () => {
    const answers = await callEvery(buggy, async () => ({ authorization: `Bearer ${await keys.token(ADMIN)}` }));
    let failed = 0;
    for (const { route, response } of answers) {
      if (WITHOUT_DATABASE.has(route)) continue;
      if (response.statusCode >= 400) expectEnvelope(route, response);
      if (response.statusCode >= 500) {
        failed++;
        expect(response.statusCode, route).toBe(500);
        expectEnvelope(route, response, SERVER_ERROR);
        expect(response.body, route).not.toContain('rows');
      }
    }
    expect(failed).toBeGreaterThan(answers.length / 2);
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
