import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config/env.js';
import { paths } from '../src/runtime.js';
import { seedDemoData } from '../src/seed/demo-data.js';
import { ADMIN, MEMBER, OTHER_MEMBER, apiAppOn, testApp, testDatabase, testKeys } from './helper.js';
import { rawAnswers } from './raw-answers.js';
import { HELMET_HEADERS } from './security-headers.js';

const ctx = await testApp();
await seedDemoData(ctx.db, paths.catalogFile, MEMBER.sub);

/** Everything no write in the fuzz may change, whatever extra fields it sends. */
async function protectedState(targets: { membershipId: number; packageId: number }) {
  const q = async (sql: string, params: unknown[] = []) => JSON.stringify((await ctx.pool.query(sql, params)).rows);
  return {
    products: await q('select product_id, name, retail_price, image_url from products order by product_id'),
    otherMember: await q('select * from user_details where subject = $1', [OTHER_MEMBER.sub]),
    otherMemberships: await q(
      `select membership_id, name, product_id, discount_package_id from memberships
       where membership_id <> $1 and membership_id <= $1 + 100 order by membership_id`,
      [targets.membershipId],
    ),
    otherPackages: await q(
      'select discount_package_id, name from discount_packages where discount_package_id <> $1 order by 1',
      [targets.packageId],
    ),
    subscriptionsOfOthers: await q('select * from subscriptions where subject <> $1 order by 1', [MEMBER.sub]),
    accounts: await q('select account_id, email, groups, role from accounts order by account_id'),
  };
}

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Values of every JSON type, odd numbers, NUL, huge strings and deep nesting. */
const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 300 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.constantFrom('x'.repeat(5000), '9'.repeat(400), '-0', '1e309', '12.345', ' ', '<script>', "' or 1=1 --"),
  fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(2 ** 53 + 1)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => JSON.parse(nested(depth)) as unknown),
);

/** Plausible field names plus fields a client must never control. */
const shapedFields = fc.record(
  {
    name: junk,
    description: junk,
    productId: junk,
    membershipId: junk,
    discountPackageId: junk,
    price: junk,
    numberOfFreeEligibleItems: junk,
    membershipLengthInMonths: junk,
    firstName: junk,
    email: junk,
    birthdate: junk,
    biologicalSex: junk,
    previousPassword: junk,
    proposedPassword: junk,
    subject: fc.constant(OTHER_MEMBER.sub),
    sub: fc.constant(OTHER_MEMBER.sub),
    owner: fc.constant(OTHER_MEMBER.sub),
    groups: fc.constant(['Admin']),
    isAdmin: fc.constant(true),
    roles: fc.constant(['Admin']),
    retailPrice: fc.constant(0),
    constructor: fc.constant({ prototype: { polluted: true } }),
  },
  { requiredKeys: [] },
);
/** How an own "__proto__" field reads in a body sent. */
const PROTO_FIELD = '"__proto__":{"polluted":true}';
/** An own "__proto__" field, as JSON.parse makes one (an object literal's __proto__ would set the prototype). */
const withProtoField = (fields: object) =>
  Object.assign(JSON.parse('{"__proto__":{"polluted":true}}') as object, fields);
const shaped = fc.tuple(shapedFields, fc.boolean()).map(([fields, proto]) => (proto ? withProtoField(fields) : fields));
const body = fc.oneof(junk, shaped, fc.array(shaped, { maxLength: 5 }));

describe('fuzzing every write endpoint', () => {
  let targets = { membershipId: 0, packageId: 0 };
  beforeAll(async () => {
    const membership = await ctx.pool.query('select min(membership_id) as id from memberships');
    const pkg = await ctx.pool.query('select min(discount_package_id) as id from discount_packages');
    targets = { membershipId: membership.rows[0].id, packageId: pkg.rows[0].id };
    await ctx.pool.query(
      `insert into user_details (subject, first_name, email) values ($1, 'Other', 'other@example.com')`,
      [OTHER_MEMBER.sub],
    );
  });

  const endpoints = () =>
    [
      ['POST', '/api/membership', ADMIN],
      ['PUT', `/api/membership/${targets.membershipId}`, ADMIN],
      ['POST', '/api/discountPackage', ADMIN],
      ['PUT', `/api/discountPackage/${targets.packageId}`, ADMIN],
      ['PUT', '/api/discountPackageProduct', ADMIN],
      ['POST', '/api/discountPackageProduct', ADMIN],
      ['DELETE', '/api/discountPackageProduct', ADMIN],
      ['POST', '/api/promotionalProduct', ADMIN],
      ['POST', '/api/promotionalProduct/batch', ADMIN],
      ['DELETE', '/api/promotionalProduct', ADMIN],
      ['POST', '/api/userdetails/internal', MEMBER],
      ['POST', '/api/PasswordReset', MEMBER],
      // A member's writes to admin endpoints are refused before the body matters.
      ['POST', '/api/membership', MEMBER],
    ] as const;

  it('shapes about half of its bodies with an own __proto__ field, and other bodies on every draw', () => {
    // 100 bodies from a fresh random seed each draw: the count is 50 ± 5 (one standard deviation), so the bounds
    // are six deviations away.
    const draw = () => fc.sample(shaped, 100).map((payload) => JSON.stringify(payload));
    const texts = draw();
    const withProto = texts.filter((text) => text.includes(PROTO_FIELD)).length;
    expect(withProto).toBeGreaterThan(20);
    expect(withProto).toBeLessThan(80);
    // Nothing pins the seed: a second draw is another set of bodies, so each run of the fuzz below sends new ones.
    expect(draw()).not.toEqual(texts);
  });

  it('never answers 5xx, always answers the envelope, and changes no protected field', async () => {
    const before = await protectedState(targets);
    const sent: string[] = [];
    for (const [method, url, who] of endpoints()) {
      const headers = { ...(await ctx.signedIn(who)), 'content-type': 'application/json' };
      await fc.assert(
        fc.asyncProperty(body, async (payload) => {
          const text = JSON.stringify(payload) ?? 'null';
          sent.push(text);
          const response = await ctx.app.inject({ method, url, headers, payload: text });
          let answer: { isError?: unknown; message?: unknown; data?: unknown } = {};
          try {
            answer = response.json();
          } catch {
            throw new Error(`${method} ${url} answered ${response.statusCode} with ${JSON.stringify(response.body)}`);
          }
          return (
            response.statusCode < 500 &&
            typeof answer.isError === 'boolean' &&
            typeof answer.message === 'string' &&
            Array.isArray(answer.data) &&
            (who !== MEMBER || !url.startsWith('/api/membership') || response.statusCode === 403)
          );
        }),
        // A fresh seed each run, so the runs together try far more bodies; a failure names its seed and path to replay.
        { numRuns: 40 },
      );
    }
    // The bodies sent include own __proto__ fields, so the last check means something.
    expect(sent.filter((text) => text.includes(PROTO_FIELD)).length).toBeGreaterThan(0);
    expect(await protectedState(targets)).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it("saves a member's details under the token's subject, whatever subject the body names", async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/userdetails/internal',
      headers: { ...(await ctx.signedIn(MEMBER)), 'content-type': 'application/json' },
      payload: JSON.stringify({ firstName: 'Mine', lastName: '', email: '' }),
    });
    // Fields the body may not set (here whose details they are) are dropped: the token's subject decides.
    const sneaky = await ctx.app.inject({
      method: 'POST',
      url: '/api/userdetails/internal',
      headers: { ...(await ctx.signedIn(MEMBER)), 'content-type': 'application/json' },
      payload: JSON.stringify({ firstName: 'Sneaky', subject: OTHER_MEMBER.sub }),
    });
    expect(response.statusCode).toBe(200);
    expect(sneaky.statusCode).toBe(200);
    const names = async (subject: string) =>
      (await ctx.pool.query('select first_name from user_details where subject = $1', [subject])).rows;
    expect(await names(OTHER_MEMBER.sub)).toEqual([{ first_name: 'Other' }]);
    expect(await names(MEMBER.sub)).toEqual([{ first_name: 'Sneaky' }]);
  });
});

const SECURITY_HEADERS = {
  'content-security-policy': expect.stringContaining("default-src 'self'"),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'strict-transport-security': expect.stringContaining('max-age='),
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
};

describe('security headers and cross-origin requests', () => {
  it('are on 200, 400 and 414 (a malformed or over-long address, which Fastify answers before any hook), 401, 403, 404, 413, 429 and 500 answers alike', async () => {
    // An app of its own with one route that fails, to see a 500 as a client would.
    const database = await testDatabase();
    const keys = await testKeys();
    const config = loadConfig({}, { catalogFile: paths.catalogFile });
    const app = await apiAppOn(database.db, config, keys);
    app.get('/api/fails', { config: { policy: 'public' } }, async () => {
      throw new Error('secret internal detail');
    });
    await app.ready();
    const member = { authorization: `DPoP ${await keys.token(MEMBER)}`, 'content-type': 'application/json' };
    const answers: Record<number, Awaited<ReturnType<typeof app.inject>>> = {
      200: await app.inject({ url: '/api/userdetails/', headers: member }),
      400: await app.inject({ url: '/api/membership/%zz' }),
      414: await app.inject({ url: `/api/promotionalProduct/${'1'.repeat(101)}` }),
      401: await app.inject({ url: '/api/membership' }),
      403: await app.inject({ url: '/api/membership', headers: member }),
      404: await app.inject({ url: '/api/no-such-thing' }),
      413: await app.inject({
        method: 'POST',
        url: '/api/userdetails/internal',
        headers: member,
        payload: JSON.stringify({ firstName: 'x'.repeat(300_000) }),
      }),
      500: await app.inject({ url: '/api/fails' }),
    };
    let limited = await app.inject({ method: 'POST', url: '/api/PasswordReset', headers: member, payload: '{}' });
    for (let i = 0; i < 10 && limited.statusCode !== 429; i++) {
      limited = await app.inject({
        method: 'POST',
        url: '/api/PasswordReset',
        headers: member,
        payload: JSON.stringify({ previousPassword: 'Wrong-Pass-1!', proposedPassword: 'Next-Pass-2!' }),
      });
    }
    answers[429] = limited;
    for (const [status, response] of Object.entries(answers)) {
      expect(response.statusCode, `status ${status}`).toBe(Number(status));
      expect(response.headers, `status ${status}`).toMatchObject(SECURITY_HEADERS);
      expect(response.headers['cache-control'], `status ${status}`).toBe('no-store');
    }
    expect(answers[500]!.body).not.toContain('secret internal detail');
    // The malformed and the over-long address get the envelope and the request's id, as every other failure does.
    expect(JSON.parse(answers[400]!.body)).toMatchObject({
      isError: true,
      message: 'The address is malformed: a % in it must start a percent-encoded byte',
    });
    expect(JSON.parse(answers[414]!.body)).toMatchObject({ isError: true, message: 'The address is too long' });
    for (const status of [400, 414]) expect(answers[status]!.headers['x-request-id']).toEqual(expect.any(String));
    await app.close();
  });

  it('are on the 400 and 431 for a request Node refuses to read (bytes that are not HTTP, headers over its limit), every one of them, with no-store, an id and the envelope', async () => {
    const database = await testDatabase();
    const app = await apiAppOn(database.db, loadConfig({}, { catalogFile: paths.catalogFile }), await testKeys());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    /** What comes back on a connection of its own for these bytes, read until the server closes it. */
    const answerTo = async (bytes: string) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString('utf8')));
      socket.on('error', () => undefined);
      const closed = once(socket, 'close');
      socket.write(bytes);
      await closed;
      return rawAnswers(received)[0]!;
    };
    const everyAnswers = (await fetch(`http://127.0.0.1:${port}/api/health`)).headers;
    const refused = {
      400: await answerTo('GET /api/health HTTP/1.1\r\nHost: localhost\r\nNot A Header: x\r\n\r\n'),
      431: await answerTo(`GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    };
    expect(refused[400].status).toBe('HTTP/1.1 400 Bad Request');
    expect(refused[431].status).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    const messages = {
      400: 'The request is malformed: it is not HTTP this server can read',
      431: 'The request headers are too large',
    };
    for (const status of [400, 431] as const) {
      const { headers, body } = refused[status];
      expect(headers, `status ${status}`).toMatchObject(SECURITY_HEADERS);
      // Every security header a served answer has, with the same value.
      for (const name of HELMET_HEADERS) {
        expect(everyAnswers.get(name), name).toEqual(expect.any(String));
        expect(headers[name], name).toBe(everyAnswers.get(name));
      }
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['content-type']).toBe('application/json; charset=utf-8');
      expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(body)).toEqual({
        isError: true,
        message: messages[status],
        data: [],
        requestId: headers['x-request-id'],
      });
    }
    await app.close();
  });

  it('are on the 503 that a request on an open connection gets while the server closes, with Retry-After, Connection: close, its id and the envelope, while the request in flight is answered', async () => {
    const database = await testDatabase();
    const keys = await testKeys();
    const app = await apiAppOn(database.db, loadConfig({}, { catalogFile: paths.catalogFile }), keys);
    // A request still being answered keeps its connection open while the server closes.
    let answerSlow: (() => void) | undefined;
    app.get('/api/slow', { config: { policy: 'public' } }, async () => {
      await new Promise<void>((resolve) => (answerSlow = resolve));
      return { slow: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    const ended = once(socket, 'end');
    const closed = (async () => {
      socket.write('GET /api/slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await vi.waitFor(() => expect(answerSlow).toBeDefined(), { timeout: 5_000 });
      const closing = app.close();
      // The server stops listening once it has begun to close; the busy connection stays open.
      await vi.waitFor(() => expect(app.server.listening).toBe(false), { timeout: 5_000 });
      socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      answerSlow!();
      const kept = new Promise((_, reject) =>
        setTimeout(() => reject(new Error('the server kept the connection open after its 503')), 5_000).unref(),
      );
      await Promise.race([ended, kept]);
      await closing;
    })();
    try {
      await closed;
    } finally {
      socket.destroy();
      await app.close();
    }

    const answered = rawAnswers(received).map((answer) => ({ ...answer, body: JSON.parse(answer.body) as unknown }));
    expect(answered.map((answer) => answer.status)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 503 Service Unavailable']);
    expect(answered[0]!.body).toEqual({ slow: true });
    expect(answered[1]!.headers).toMatchObject({
      ...SECURITY_HEADERS,
      connection: 'close',
      'cache-control': 'no-store',
      'retry-after': '1',
      'x-request-id': expect.any(String),
    });
    expect(answered[1]!.body).toMatchObject({
      isError: true,
      message: 'This server is restarting. Please try again shortly.',
    });
  });

  it('names every origin in the content security policy, and no scheme-wide source such as https:', async () => {
    const database = await testDatabase();
    const keys = await testKeys();
    const config = loadConfig(
      {
        PUBLIC_URL: 'https://members.example.com',
        AUTH_PROVIDER: 'cognito',
        AUTH_ISSUER: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Pool',
        ANALYTICS_URL: 'https://stats.example.com/collect',
        LOGOUT_COMPANION_APPS: '[{"name":"Shop","logoutUrl":"https://shop.example.com/logout"}]',
        IMAGE_ORIGINS: 'https://images.example.com',
      },
      { catalogFile: paths.catalogFile },
    );
    const app = await apiAppOn(database.db, config, keys);
    const header = String((await app.inject({ url: '/api/health' })).headers['content-security-policy']);
    await app.close();
    const directives = Object.fromEntries(
      header.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    const cognito = 'https://cognito-idp.us-east-1.amazonaws.com';
    expect(directives['connect-src']).toEqual(["'self'", cognito, 'https://stats.example.com']);
    expect(directives['frame-src']).toEqual(["'self'", cognito, 'https://shop.example.com']);
    expect(directives['img-src']).toEqual(["'self'", 'data:', 'https://images.example.com']);
    expect(directives['form-action']).toEqual(["'self'", cognito]);
    expect(directives['require-trusted-types-for']).toEqual(["'script'"]);
    expect(header).not.toMatch(/(^|\s)https:(\s|;|$)/);
  });

  it('gives a foreign origin no CORS permission, on a call or a preflight', async () => {
    const origin = { origin: 'https://evil.example.com' };
    const call = await ctx.app.inject({
      url: '/api/membership',
      headers: { ...origin, ...(await ctx.signedIn(ADMIN)) },
    });
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/membership',
      headers: { ...origin, 'access-control-request-method': 'DELETE' },
    });
    for (const response of [call, preflight]) {
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });
});
