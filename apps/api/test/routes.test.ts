import { describe, expect, it } from 'vitest';
import { paths } from '../src/runtime.js';
import { seedDemoData } from '../src/seed/demo-data.js';
import { ADMIN, MEMBER, OTHER_MEMBER, testApp } from './helper.js';

const ctx = await testApp({ env: { AUTOLOGIN_URL: 'https://store.example.com/login' } });
await seedDemoData(ctx.db, paths.catalogFile, MEMBER.sub);

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who = ADMIN, body?: unknown) {
  const response = await ctx.app.inject({
    method,
    url,
    // As the web client does: the JSON content type on every call, with or without a body.
    headers: { ...(await ctx.signedIn(who)), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

describe('memberships', () => {
  it('lists memberships by name with product, package name and promotional products', async () => {
    const { status, body, headers } = await call('GET', '/api/membership');
    expect(status).toBe(200);
    expect(headers['cache-control']).toBe('no-store');
    expect(body.isError).toBe(false);
    expect(body.data.map((m: { name: string }) => m.name)).toEqual([
      'Basic Health',
      'Health Plus',
      'Premium Longevity',
    ]);
    expect(body.data[0]).toMatchObject({
      productId: 1001,
      discountPackageName: 'Essentials Savings',
      numberOfFreeEligibleItems: 1,
      membershipLengthInMonths: 12,
    });
    expect(body.data[2].promotionalProducts).toHaveLength(6);
  });

  it('creates with defaults, updates every field (the answer and a later read agree) and deletes', async () => {
    const created = await call('POST', '/api/membership', ADMIN, { name: '  Starter  ', productId: 1003 });
    expect(created.status).toBe(201);
    expect(created.body.data).toHaveLength(1);
    const m = created.body.data[0];
    expect(m).toMatchObject({
      name: 'Starter',
      numberOfFreeEligibleItems: 0,
      membershipLengthInMonths: 12,
      discountPackageId: null,
      description: null,
    });
    const updated = await call('PUT', `/api/membership/${m.membershipId}`, ADMIN, {
      membershipId: m.membershipId,
      name: 'Starter Plus',
      description: 'More',
      productId: 1004,
      discountPackageId: 1,
      numberOfFreeEligibleItems: 2,
      membershipLengthInMonths: 120,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data[0]).toMatchObject({
      name: 'Starter Plus',
      discountPackageName: 'Essentials Savings',
      membershipLengthInMonths: 120,
    });
    expect((await call('GET', `/api/membership/${m.membershipId}`)).body.data[0].name).toBe('Starter Plus');
    expect((await call('DELETE', `/api/membership/${m.membershipId}`)).status).toBe(200);
    expect((await call('GET', `/api/membership/${m.membershipId}`)).status).toBe(404);
  });

  it('adds promotional products in one all-or-nothing batch and removes one at a time', async () => {
    const m = (await call('POST', '/api/membership', ADMIN, { name: 'Promo', productId: 1001 })).body.data[0];
    const links = [1002, 1003, 1004].map((productId) => ({ productId, membershipId: m.membershipId }));
    expect((await call('POST', '/api/promotionalProduct/batch', ADMIN, links)).status).toBe(201);
    // Duplicates are ignored.
    expect((await call('POST', '/api/promotionalProduct/batch', ADMIN, links.slice(0, 1))).status).toBe(201);
    // One unknown product refuses the whole batch.
    const bad = await call('POST', '/api/promotionalProduct/batch', ADMIN, [
      { productId: 1005, membershipId: m.membershipId },
      { productId: 999999, membershipId: m.membershipId },
    ]);
    expect(bad.status).toBe(400);
    const listed = await call('GET', `/api/promotionalProduct/${m.membershipId}`);
    expect(listed.body.data.map((l: { productId: number }) => l.productId).sort()).toEqual([1002, 1003, 1004]);
    expect(
      (await call('DELETE', '/api/promotionalProduct', ADMIN, { productId: 1003, membershipId: m.membershipId }))
        .status,
    ).toBe(200);
    expect(
      (await call('DELETE', '/api/promotionalProduct', ADMIN, { productId: 1003, membershipId: m.membershipId }))
        .status,
    ).toBe(404);
    expect(
      (await call('GET', `/api/membership/${m.membershipId}`)).body.data[0].promotionalProducts.map(
        (p: { productId: number }) => p.productId,
      ),
    ).toEqual(expect.arrayContaining([1002, 1004]));
    expect((await call('GET', '/api/promotionalProduct/999999')).status).toBe(404);
  });
});

describe('discount packages', () => {
  it('creates, edits, prices, adds and removes products, and deletes', async () => {
    const created = await call('POST', '/api/discountPackage', ADMIN, { name: 'Seniors', description: '' });
    expect(created.status).toBe(201);
    const id = created.body.data[0].discountPackageId;
    expect(created.body.data[0]).toMatchObject({ name: 'Seniors', description: null, products: [] });
    expect(
      (await call('PUT', `/api/discountPackage/${id}`, ADMIN, { name: 'Seniors 65+', description: 'Over 65' })).body
        .data[0].name,
    ).toBe('Seniors 65+');
    expect(
      (await call('POST', '/api/discountPackageProduct', ADMIN, { discountPackageId: id, productId: 1001 })).status,
    ).toBe(201);
    expect(
      (await call('POST', '/api/discountPackageProduct', ADMIN, { discountPackageId: id, productId: 1001 })).status,
    ).toBe(409);
    const priced = await call('PUT', '/api/discountPackageProduct', ADMIN, {
      discountPackageId: id,
      productId: 1001,
      price: '19.5',
    });
    expect(priced.body.data[0].products).toEqual([
      { productId: 1001, productName: 'Complete Blood Count', retailPrice: 49, price: 19.5 },
    ]);
    const cleared = await call('PUT', '/api/discountPackageProduct', ADMIN, {
      discountPackageId: id,
      productId: 1001,
      price: null,
    });
    expect(cleared.body.data[0].products[0].price).toBeNull();
    expect(
      (await call('PUT', '/api/discountPackageProduct', ADMIN, { discountPackageId: id, productId: 1002, price: 1 }))
        .status,
    ).toBe(404);
    expect(
      (await call('DELETE', '/api/discountPackageProduct', ADMIN, { discountPackageId: id, productId: 1001 })).body
        .data[0].products,
    ).toEqual([]);
    expect((await call('DELETE', `/api/discountPackage/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/api/discountPackage/${id}`)).status).toBe(404);
  });

  it('refuses to delete a package that memberships use, and says which', async () => {
    const { status, body } = await call('DELETE', '/api/discountPackage/1');
    expect(status).toBe(409);
    expect(body.message).toContain('"Basic Health"');
    expect((await call('GET', '/api/discountPackage/1')).status).toBe(200);
  });
});

describe('products', () => {
  it('lists the catalog and refreshes it from the catalog file', async () => {
    const list = await call('GET', '/api/product');
    expect(list.body.data).toHaveLength(12);
    expect(list.body.data[0]).toMatchObject({
      name: 'Complete Blood Count',
      retailPrice: 49,
      imageUrl: '/catalog-images/complete-blood-count.svg',
    });
    const refreshed = await call('GET', '/api/product/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data[0]).toMatchObject({ added: 0, updated: 12, removed: 0, total: 12 });
  });
});

describe('member account', () => {
  it('answers the token email and nulls for a member who never saved details', async () => {
    const { body } = await call('GET', '/api/userdetails/', OTHER_MEMBER);
    expect(body.data).toEqual([
      {
        firstName: null,
        lastName: null,
        email: 'other@example.com',
        biologicalSex: null,
        birthdate: null,
        phoneNumber: null,
        streetAddress: null,
        city: null,
        countryRegion: null,
        stateProvince: null,
        postalCode: null,
      },
    ]);
  });

  it("saves the caller's own details whatever owner the body names", async () => {
    const saved = await call('POST', '/api/userdetails/internal', OTHER_MEMBER, {
      firstName: 'Ada',
      lastName: '',
      email: '',
      birthdate: '1990-04-23T00:00:00Z',
      city: 'Austin',
      subject: MEMBER.sub,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data[0]).toMatchObject({
      firstName: 'Ada',
      lastName: null,
      email: 'other@example.com',
      birthdate: '1990-04-23',
      city: 'Austin',
      postalCode: null,
    });
    expect((await call('GET', '/api/userdetails', MEMBER)).body.data[0].firstName).toBe('Morgan');
    // Read back, the answer PostgreSQL builds is the envelope with what the save answered, field for field.
    const read = await call('GET', '/api/userdetails/', OTHER_MEMBER);
    expect(read.body).toEqual({ isError: false, message: '', data: saved.body.data });
  });

  it('lists subscriptions and cancels one, keeping it in the database', async () => {
    // The answer PostgreSQL builds is the envelope with exactly the documented fields.
    const answer = await ctx.app.inject({ url: '/api/UserSubscriptions', headers: await ctx.signedIn(MEMBER) });
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.json()).toMatchObject({ isError: false, message: '' });
    expect(Object.keys(answer.json().data[0]).sort()).toEqual([
      'billingInterval',
      'billingPeriod',
      'pricePerInterval',
      'products',
      'subscriptionId',
    ]);
    const none = await ctx.app.inject({ url: '/api/UserSubscriptions', headers: await ctx.signedIn(OTHER_MEMBER) });
    expect(none.json()).toEqual({ isError: false, message: '', data: [] });
    const list = (await call('GET', '/api/UserSubscriptions', MEMBER)).body.data;
    expect(list).toHaveLength(2);
    expect(list.map((s: { billingInterval: number }) => s.billingInterval)).toEqual([1, 3]);
    expect(list.map((s: { pricePerInterval: number }) => s.pricePerInterval)).toEqual([35, 89]);
    expect(list[1].products[0]).toEqual({ productName: 'Lipid Panel', imageUrl: '/catalog-images/lipid-panel.svg' });
    expect((await call('DELETE', `/api/UserSubscriptions/${list[0].subscriptionId}`, MEMBER)).status).toBe(200);
    expect((await call('GET', '/api/UserSubscriptions', MEMBER)).body.data).toHaveLength(1);
    const { rows } = await ctx.pool.query('select cancelled_at from subscriptions where subscription_id = $1', [
      list[0].subscriptionId,
    ]);
    expect(rows[0].cancelled_at).toBeInstanceOf(Date);
  });

  it('answers payment history newest first with product names', async () => {
    const { body } = await call('GET', '/api/PaymentHistory', MEMBER);
    expect(body.data.length).toBeGreaterThanOrEqual(8);
    expect(new Set(body.data.map((o: { status: string }) => o.status)).size).toBeGreaterThanOrEqual(4);
    const dates = body.data.map((o: { date: string }) => Date.parse(o.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(body.data[1]).toMatchObject({
      totalAmount: 118,
      productNames: ['Lipid Panel', 'Thyroid Panel (TSH, Free T4)'],
    });
  });

  it('serves the web app its configuration without a token', async () => {
    const response = await ctx.app.inject({ url: '/api/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      authority: 'http://localhost:8080/oidc',
      clientId: 'ums-web',
      scope: 'openid email phone profile',
      logoutUrl:
        'http://localhost:8080/oidc/session/end?client_id={clientId}&post_logout_redirect_uri={returnTo}&id_token_hint={idTokenHint}',
      groupsClaim: 'groups',
      analyticsUrl: null,
      companionApps: [],
      company: { name: 'UMS Health', termsUrl: '/legal/terms.html', privacyUrl: '/legal/privacy.html' },
    });
  });

  it('answers autologin, the auth check, health and readiness (both without a token) and the API documentation', async () => {
    expect((await call('GET', '/api/autologin', MEMBER)).body.data).toEqual([
      { url: 'https://store.example.com/login' },
    ]);
    expect((await call('GET', '/api/test/auth', ADMIN)).body.data).toEqual([
      { subject: 'admin-1', email: 'admin@example.com', groups: ['Admin'] },
    ]);
    const health = await ctx.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'up' });
    const docs = await ctx.app.inject({ url: '/api/docs/json' });
    expect(docs.json().paths['/api/membership']).toBeDefined();
  });
});
