import { envelopeSchema, LISTS, productSchema, type ListName } from '@ums/contracts';
import { dpopHeaders, signIn } from '@ums/testkit/oidc-browser';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it, vi } from 'vitest';
import { answers } from '../src/modules/envelope-schema.js';
import { sendJsonText } from '../src/modules/lists/json-text.js';
import { createAccountService } from '../src/identity/accounts.service.js';
import { paths } from '../src/runtime.js';
import { seedDemoData } from '../src/seed/demo-data.js';
import { ANSWERS_CHECKED, checkAnswersAgainstContracts } from './answer-contracts.js';
import { providerApp } from './oidc-client.js';

const product = { productId: 1001, name: 'Lipid Panel', retailPrice: 49.5, imageUrl: null };

/** One route answering `body` as JSON text (as the lists do), under the product list's response schema. */
async function answering(body: unknown) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  checkAnswersAgainstContracts(app);
  app.get('/api/product', { schema: { response: answers(productSchema) } }, async (_request, reply) =>
    sendJsonText(reply, JSON.stringify(body)),
  );
  await app.ready();
  const silenced = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    return (await app.inject({ url: '/api/product' })).statusCode;
  } finally {
    silenced.mockRestore();
    await app.close();
  }
}

const envelope = (data: unknown[]) => ({ isError: false, message: '', data });

describe("the tests' contract check on answers sent as JSON text", () => {
  it('passes an answer that is exactly its contract', async () => {
    expect(envelopeSchema(productSchema).safeParse(envelope([product])).success).toBe(true);
    expect(await answering(envelope([product]))).toBe(200);
  });

  it('fails an answer with a field the contract does not name, one without a field it needs, or a value of the wrong type', async () => {
    expect(await answering(envelope([{ ...product, cost: 12 }]))).toBe(500);
    expect(await answering(envelope([{ productId: 1001, retailPrice: 49.5, imageUrl: null }]))).toBe(500);
    expect(await answering(envelope([{ ...product, retailPrice: '49.50' }]))).toBe(500);
    expect(await answering({ data: [product] })).toBe(500);
  });
});

describe('every JSON answer of every GET route, as its contract reads it', () => {
  const PASSWORD = 'Contracts-Pass-42!';

  it('answers each GET route, and each list in every sort, direction and search, with exactly its contract (checked on the way out)', async () => {
    const server = await providerApp({ AUTOLOGIN_URL: 'https://store.contracts.example/autologin' });
    const { base, database } = server;
    expect(server.state.app.hasDecorator(ANSWERS_CHECKED), "the product's app checks its answers").toBe(true);
    const accounts = createAccountService({ db: database.db });
    await accounts.add({ email: 'avery@contracts.example', password: PASSWORD, admin: true });
    const memberAccount = await accounts.add({
      email: 'morgan@contracts.example',
      password: PASSWORD,
      firstName: 'Morgan',
      lastName: 'Lee',
    });
    const member = String(memberAccount.accountId);
    await seedDemoData(database.db, paths.catalogFile, member);
    const adminToken = (await signIn(base, 'avery@contracts.example', PASSWORD)).access_token;
    const memberToken = (await signIn(base, 'morgan@contracts.example', PASSWORD)).access_token;
    /** A call as the web app makes it: the token and a fresh proof of its key; the answer as it comes. */
    const caller = (token: string) => (method: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: { ...dpopHeaders(token, method, `${base}${path}`), 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const asAdmin = caller(adminToken);
    const asMember = caller(memberToken);
    // Something in every kind of entry: a catalog write (audit), saved details, a pending account deletion.
    expect((await asAdmin('POST', '/api/discountPackage', { name: 'Contracts', description: '' })).status).toBe(201);
    expect(
      (
        await asMember('POST', '/api/userdetails/internal', {
          firstName: 'Morgan',
          lastName: 'Lee',
          email: 'morgan@contracts.example',
          biologicalSex: 'Female',
          birthdate: '1990-04-12',
          phoneNumber: '+1 503 555 0100',
          streetAddress: '1 Main St',
          city: 'Portland',
          countryRegion: 'United States',
          stateProvince: 'OR',
          postalCode: '97201',
        })
      ).status,
    ).toBe(200);
    const first = async (call: typeof asAdmin, path: string, field: string) =>
      String(((await (await call('GET', path)).json()) as { data: Record<string, unknown>[] }).data[0]![field]);
    const membershipId = await first(asAdmin, '/api/membership', 'membershipId');
    const packageId = await first(asAdmin, '/api/discountPackage', 'discountPackageId');
    const orderId = await first(asMember, '/api/PaymentHistory', 'orderId');

    const calls: { route: string; path: string; as: typeof asAdmin }[] = [];
    const add = (route: string, path: string, as = asAdmin) => calls.push({ route, path, as });
    const withLists = (route: string, path: string, list: ListName, as = asAdmin) => {
      add(route, path, as);
      for (const field of LISTS[list].sorts) {
        for (const sort of [field, `-${field}`]) {
          add(route, `${path}?limit=3&sort=${sort}`, as);
          add(route, `${path}?limit=3&sort=${sort}&q=a`, as);
        }
      }
    };
    add('GET /api/health', '/api/health');
    add('GET /api/ready', '/api/ready');
    add('GET /api/config', '/api/config');
    add('GET /api/test/auth', '/api/test/auth', asMember);
    add('GET /api/autologin', '/api/autologin', asMember);
    add('GET /api/userdetails/', '/api/userdetails/', asMember);
    add('GET /api/sessions', '/api/sessions', asMember);
    withLists('GET /api/activity', '/api/activity', 'activity', asMember);
    add('GET /api/security/factors', '/api/security/factors', asMember);
    add('GET /api/PaymentHistory/:orderId/receipt', `/api/PaymentHistory/${orderId}/receipt`, asMember);
    add(
      'GET /api/PaymentHistory/receipts',
      `/api/PaymentHistory/receipts?year=${new Date().getUTCFullYear()}`,
      asMember,
    );
    add('GET /api/me/export', '/api/me/export', asMember);
    // A change waiting for its link, so the status and the member's page answer one in full.
    const asked = await asMember('POST', '/api/me/email-change', {
      newEmail: 'morgan.moved@contracts.example',
      password: PASSWORD,
    });
    expect(asked.status).toBe(202);
    add('GET /api/me/email-change', '/api/me/email-change', asMember);
    withLists('GET /api/PaymentHistory', '/api/PaymentHistory', 'paymentHistory', asMember);
    withLists('GET /api/UserSubscriptions', '/api/UserSubscriptions', 'subscriptions', asMember);
    withLists('GET /api/admin/members', '/api/admin/members', 'members');
    add('GET /api/admin/members/:id', `/api/admin/members/${member}`);
    withLists('GET /api/admin/members/:id/orders', `/api/admin/members/${member}/orders`, 'paymentHistory');
    withLists('GET /api/admin/members/:id/activity', `/api/admin/members/${member}/activity`, 'activity');
    withLists('GET /api/admin/audit', '/api/admin/audit', 'audit');
    add('GET /api/admin/audit', `/api/admin/audit?entity=discount-package&entityId=${packageId}`);
    add('GET /api/admin/overview', '/api/admin/overview');
    add('GET /api/admin/metrics', '/api/admin/metrics');
    add('GET /api/admin/metrics', '/api/admin/metrics?from=2025-01-01&to=2026-11-27&interval=month');
    withLists('GET /api/membership', '/api/membership', 'membership');
    add('GET /api/membership/:id', `/api/membership/${membershipId}`);
    withLists('GET /api/discountPackage', '/api/discountPackage', 'discountPackage');
    add('GET /api/discountPackage/:id', `/api/discountPackage/${packageId}`);
    withLists('GET /api/product', '/api/product', 'product');
    add('GET /api/product/refresh', '/api/product/refresh');
    withLists('GET /api/promotionalProduct', '/api/promotionalProduct', 'promotionalProduct');
    withLists(
      'GET /api/promotionalProduct/:membershipId',
      `/api/promotionalProduct/${membershipId}`,
      'promotionalProduct',
    );

    // A GET route added later fails here until its answers are called above.
    const getRoutes = server.state.app.routeTable
      .filter((r) => r.method === 'GET' && r.url.startsWith('/api') && !r.url.startsWith('/api/docs'))
      .map((r) => `GET ${r.url}`);
    expect(new Set(calls.map((c) => c.route))).toEqual(new Set(getRoutes));

    const failed: string[] = [];
    for (const { path, as } of calls) {
      const answer = await as('GET', path);
      if (answer.status !== 200) failed.push(`${path}: ${answer.status} ${(await answer.text()).slice(0, 300)}`);
    }
    expect(failed).toEqual([]);
  }, 180_000);
});
