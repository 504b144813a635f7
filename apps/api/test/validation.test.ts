import { oneLineMessage } from '@ums/contracts';
import { describe, expect, it } from 'vitest';
import { paths } from '../src/runtime.js';
import { seedDemoData } from '../src/seed/demo-data.js';
import { ADMIN, MEMBER, testApp } from './helper.js';

const ctx = await testApp();
await seedDemoData(ctx.db, paths.catalogFile, MEMBER.sub);

async function dbState() {
  const { rows } = await ctx.pool.query(`select
    (select json_agg(m order by membership_id) from memberships m) as m,
    (select json_agg(p order by discount_package_id, product_id) from discount_package_products p) as p,
    (select json_agg(d order by discount_package_id) from discount_packages d) as d,
    (select json_agg(u) from user_details u) as u,
    (select json_agg(l order by membership_id, product_id) from promotional_products l) as l`);
  return JSON.stringify(rows[0]);
}

async function send(
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload: string,
  who = ADMIN,
  contentType = 'application/json',
) {
  const response = await ctx.app.inject({
    method,
    url,
    payload,
    headers: { ...(await ctx.signedIn(who)), 'content-type': contentType },
  });
  return { status: response.statusCode, body: response.json() };
}

const valid = { name: 'Valid', productId: 1001, numberOfFreeEligibleItems: 0, membershipLengthInMonths: 12 };

const cases: [string, 'POST' | 'PUT' | 'DELETE', string, unknown, string][] = [
  ['blank membership name', 'POST', '/api/membership', { ...valid, name: '   ' }, 'Name is required'],
  ['missing membership name', 'POST', '/api/membership', { productId: 1001 }, 'Name is required'],
  ['missing product', 'POST', '/api/membership', { name: 'X' }, 'Product is required'],
  ['length 0', 'POST', '/api/membership', { ...valid, membershipLengthInMonths: 0 }, 'between 1 and 120 months'],
  ['length 121', 'PUT', '/api/membership/1', { ...valid, membershipLengthInMonths: 121 }, 'between 1 and 120 months'],
  [
    'length as text',
    'POST',
    '/api/membership',
    { ...valid, membershipLengthInMonths: 'abc' },
    'Membership length must be a whole number',
  ],
  ['negative free items', 'POST', '/api/membership', { ...valid, numberOfFreeEligibleItems: -1 }, 'must be 0 or more'],
  ['unknown product', 'POST', '/api/membership', { ...valid, productId: 424242 }, 'Product 424242 does not exist'],
  [
    'unknown product when saving an existing membership',
    'PUT',
    '/api/membership/1',
    { ...valid, productId: 424242 },
    'Product 424242 does not exist',
  ],
  [
    'unknown discount package',
    'PUT',
    '/api/membership/1',
    { ...valid, discountPackageId: 4242 },
    'Discount package 4242 does not exist',
  ],
  ['body id differs from address', 'PUT', '/api/membership/1', { ...valid, membershipId: 2 }, 'does not match'],
  ['owner field smuggled in', 'POST', '/api/membership', { ...valid, ownerId: 'x' }, 'ownerId'],
  ['blank package name', 'POST', '/api/discountPackage', { name: '' }, 'Name is required'],
  [
    'membership name on two lines',
    'POST',
    '/api/membership',
    { ...valid, name: 'Gold\nCall 555-0100 to claim' },
    oneLineMessage('Name'),
  ],
  [
    'package name with a right-to-left override',
    'POST',
    '/api/discountPackage',
    { name: 'Savings \u202Efdp.exe' },
    oneLineMessage('Name'),
  ],
  [
    'non-decimal price',
    'PUT',
    '/api/discountPackageProduct',
    { discountPackageId: 1, productId: 1001, price: '12,50' },
    'Price must be a decimal number',
  ],
  [
    'price with 3 decimals',
    'PUT',
    '/api/discountPackageProduct',
    { discountPackageId: 1, productId: 1001, price: 1.005 },
    'at most 2 decimals',
  ],
  [
    'negative price',
    'PUT',
    '/api/discountPackageProduct',
    { discountPackageId: 1, productId: 1001, price: -1 },
    'Price must be a decimal number',
  ],
  [
    'id as text',
    'PUT',
    '/api/discountPackageProduct',
    { discountPackageId: '1', productId: 1001, price: 1 },
    'Must be a numeric id',
  ],
  ['empty batch', 'POST', '/api/promotionalProduct/batch', [], 'at least one link'],
  [
    'batch not an array',
    'POST',
    '/api/promotionalProduct/batch',
    { productId: 1001, membershipId: 1 },
    'Invalid request',
  ],
];

describe('validation: 400 with a clear message and field errors, database unchanged', () => {
  it("a member's first or last name on two lines, or with a control character", async () => {
    for (const [field, label] of [
      ['firstName', 'First name'],
      ['lastName', 'Last name'],
    ] as const) {
      for (const name of ['Ann\nVisit evil.example to keep your account', 'Ann\u0007', 'Ann\u2028Lee']) {
        const before = await dbState();
        const { status, body } = await send(
          'POST',
          '/api/userdetails/internal',
          JSON.stringify({ [field]: name }),
          MEMBER,
        );
        expect(status).toBe(400);
        expect(body.message).toContain(oneLineMessage(label));
        expect(body.errors[field]).toEqual([oneLineMessage(label)]);
        expect(await dbState()).toBe(before);
      }
    }
  });

  for (const [label, method, url, body, message] of cases) {
    it(label, async () => {
      const before = await dbState();
      const { status, body: answer } = await send(method, url, JSON.stringify(body));
      expect(status).toBe(400);
      expect(answer.isError).toBe(true);
      expect(answer.data).toEqual([]);
      expect(answer.message).toContain(message);
      expect(await dbState()).toBe(before);
    });
  }

  it('carries field errors on schema failures', async () => {
    const { body } = await send(
      'POST',
      '/api/membership',
      JSON.stringify({ ...valid, name: '', membershipLengthInMonths: 121 }),
    );
    expect(body.errors).toEqual({
      name: ['Name is required'],
      membershipLengthInMonths: ['Membership length must be between 1 and 120 months'],
    });
  });

  it('refuses a bad birthdate and a bad biological sex in personal details', async () => {
    const before = await dbState();
    for (const payload of [{ birthdate: '1990-02-30' }, { biologicalSex: 'Other' }, { email: 'not-an-email' }]) {
      const { status } = await send('POST', '/api/userdetails/internal', JSON.stringify(payload), MEMBER);
      expect(status).toBe(400);
    }
    expect(await dbState()).toBe(before);
  });

  it('answers unknown ids in the address with 404 and malformed ones with 400', async () => {
    expect(
      (await ctx.app.inject({ url: '/api/membership/123456', headers: await ctx.signedIn(ADMIN) })).statusCode,
    ).toBe(404);
    expect((await ctx.app.inject({ url: '/api/membership/abc', headers: await ctx.signedIn(ADMIN) })).statusCode).toBe(
      400,
    );
    expect((await ctx.app.inject({ url: '/api/membership/0', headers: await ctx.signedIn(ADMIN) })).statusCode).toBe(
      400,
    );
  });

  it('refuses bodies that are not JSON, malformed or too large', async () => {
    const before = await dbState();
    const notJson = await send('POST', '/api/discountPackage', 'name=x', ADMIN, 'application/x-www-form-urlencoded');
    expect(notJson.status).toBe(415);
    expect(notJson.body.message).toContain('JSON');
    const malformed = await send('POST', '/api/discountPackage', '{"name":', ADMIN);
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('The request body is not valid JSON');
    const huge = await send('POST', '/api/discountPackage', JSON.stringify({ name: 'x'.repeat(200_000) }), ADMIN);
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ isError: true, message: 'The request body is too large' });
    const empty = await send('POST', '/api/discountPackage', '', ADMIN);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('The request body is empty; send a JSON body');
    expect(await dbState()).toBe(before);
  });
});

describe('security headers', () => {
  it('are on successes and errors alike', async () => {
    for (const [url, status] of [
      ['/api/health', 200],
      ['/api/membership', 401],
      ['/api/nothing-here', 404],
    ] as const) {
      const response = await ctx.app.inject({ url });
      expect(response.statusCode).toBe(status);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBeDefined();
    }
  });
});
