import { describe, expect, it } from 'vitest';
import { createAccountService } from '../src/identity/accounts.service.js';
import { appendAudit } from '../src/modules/audit/audit.js';
import { seedDemoData } from '../src/seed/demo-data.js';
import { paths } from '../src/runtime.js';
import { DPOP_REFUSED } from '../src/plugins/auth.js';
import { CONSOLE_RIGHTS, type ConsoleRole } from '@ums/contracts/roles';
import { ADMIN, AUDIENCE, CATALOG, ISSUER, MEMBER, OTHER_MEMBER, SUPPORT, testApp } from './helper.js';

const ctx = await testApp();
await seedDemoData(ctx.db, paths.catalogFile, MEMBER.sub);

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const adminClaims = () => ({ ...ADMIN, iss: ISSUER, aud: AUDIENCE, exp: now() + 600, iat: now() });

/** alg "none": no signature at all. */
const unsigned = () => `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(adminClaims())}.`;

/** HS256 "signed" with the provider's public key as the secret: the classic key-confusion attack. */
async function hmacWithPublicKey() {
  const { createHmac } = await import('node:crypto');
  const secret = JSON.stringify(ctx.keys.jwks.keys[0]);
  const body = `${b64({ alg: 'HS256', typ: 'at+jwt', kid: 'test-key' })}.${b64(adminClaims())}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** Everything in the database, to prove a refused call changed nothing. */
async function snapshot() {
  const tables = [
    'products',
    'discount_packages',
    'discount_package_products',
    'memberships',
    'promotional_products',
    'user_details',
    'accounts',
    'email_changes',
    'subscriptions',
    'subscription_products',
    'orders',
    'order_items',
    'audit_entries',
    'mail_outbox',
    'totp_factors',
    'passkeys',
    'recovery_codes',
  ];
  const out: Record<string, unknown> = {};
  for (const table of tables) {
    const { rows } = await ctx.pool.query(`select * from ${table} order by 1, 2`);
    out[table] = rows;
  }
  return JSON.stringify(out);
}

const callers = {
  'no token': async () => ({}),
  'expired token': async () => ({
    authorization: `DPoP ${await ctx.keys.token({ ...ADMIN }, { expiresIn: Math.floor(Date.now() / 1000) - 60 })}`,
  }),
  'wrong audience': async () => ({
    authorization: `DPoP ${await ctx.keys.token({ ...ADMIN }, { audience: 'https://elsewhere.example/api' })}`,
  }),
  // The web client's tokens are always bound (issue 33): one without a key was made or taken outside the browser.
  "web client's admin token without a key": async () => ({
    authorization: `Bearer ${await ctx.keys.token({ ...ADMIN, cnf: undefined })}`,
  }),
  member: () => ctx.signedIn(MEMBER),
  'other member': () => ctx.signedIn(OTHER_MEMBER),
  Support: () => ctx.signedIn(SUPPORT),
  Catalog: () => ctx.signedIn(CATALOG),
  Admin: () => ctx.signedIn(ADMIN),
} as const;

const apiRoutes = ctx.app.routeTable.filter(
  (r) => r.url.startsWith('/api') && r.method !== 'HEAD' && !r.url.startsWith('/api/docs'),
);

/**
 * Who may call what, written down here rather than read from the routes: a route that declares a looser policy than
 * this table fails the matrix, and a new route fails until it is added here with a policy chosen on purpose. A console
 * route names the roles that may call it (README, "Console roles"): Support never reaches the catalog, Catalog never
 * a member, and only Admin changes groups.
 */
const POLICY: Record<string, 'public' | 'member' | readonly ConsoleRole[]> = {
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  'GET /api/config': 'public',
  'GET /api/test/auth': 'member',
  'GET /api/autologin': 'member',
  'GET /api/userdetails/': 'member',
  'POST /api/userdetails/internal': 'member',
  'POST /api/PasswordReset': 'member',
  'GET /api/sessions': 'member',
  'DELETE /api/sessions': 'member',
  'DELETE /api/sessions/:id': 'member',
  'GET /api/activity': 'member',
  'GET /api/security/factors': 'member',
  'POST /api/security/totp/setup': 'member',
  'POST /api/security/totp': 'member',
  'DELETE /api/security/totp': 'member',
  'POST /api/security/recovery-codes': 'member',
  'POST /api/security/passkeys/options': 'member',
  'POST /api/security/passkeys': 'member',
  'PATCH /api/security/passkeys/:id': 'member',
  'DELETE /api/security/passkeys/:id': 'member',
  'GET /api/PaymentHistory/:orderId/receipt': 'member',
  'GET /api/PaymentHistory/receipts': 'member',
  'GET /api/me/export': 'member',
  'POST /api/me/deletion': 'member',
  'GET /api/me/email-change': 'member',
  'POST /api/me/email-change': 'member',
  'POST /api/me/email-change/resend': 'member',
  'DELETE /api/me/email-change': 'member',
  'GET /api/admin/members': ['Admin', 'Support'],
  'GET /api/admin/members/:id': ['Admin', 'Support'],
  'GET /api/admin/members/:id/orders': ['Admin', 'Support'],
  'GET /api/admin/members/:id/activity': ['Admin', 'Support'],
  'POST /api/admin/members/:id/end-sessions': ['Admin', 'Support'],
  'POST /api/admin/members/:id/reset-sign-in-methods': ['Admin', 'Support'],
  'PUT /api/admin/members/:id/groups': ['Admin'],
  'GET /api/admin/audit': ['Admin', 'Support', 'Catalog'],
  'POST /api/admin/audit/:id/revert': ['Admin', 'Catalog'],
  'GET /api/UserSubscriptions': 'member',
  'DELETE /api/UserSubscriptions/:id': 'member',
  'GET /api/PaymentHistory': 'member',
  'GET /api/admin/overview': ['Admin', 'Catalog'],
  'GET /api/admin/metrics': ['Admin'],
  'GET /api/membership': ['Admin', 'Catalog'],
  'GET /api/membership/:id': ['Admin', 'Catalog'],
  'POST /api/membership': ['Admin', 'Catalog'],
  'PUT /api/membership/:id': ['Admin', 'Catalog'],
  'DELETE /api/membership/:id': ['Admin', 'Catalog'],
  'GET /api/discountPackage': ['Admin', 'Catalog'],
  'GET /api/discountPackage/:id': ['Admin', 'Catalog'],
  'POST /api/discountPackage': ['Admin', 'Catalog'],
  'PUT /api/discountPackage/:id': ['Admin', 'Catalog'],
  'DELETE /api/discountPackage/:id': ['Admin', 'Catalog'],
  'PUT /api/discountPackageProduct': ['Admin', 'Catalog'],
  'POST /api/discountPackageProduct': ['Admin', 'Catalog'],
  'DELETE /api/discountPackageProduct': ['Admin', 'Catalog'],
  'GET /api/product': ['Admin', 'Catalog'],
  'GET /api/product/refresh': ['Admin', 'Catalog'],
  'POST /api/product/refresh': ['Admin', 'Catalog'],
  'GET /api/promotionalProduct': ['Admin', 'Catalog'],
  'GET /api/promotionalProduct/:membershipId': ['Admin', 'Catalog'],
  'POST /api/promotionalProduct': ['Admin', 'Catalog'],
  'POST /api/promotionalProduct/batch': ['Admin', 'Catalog'],
  'DELETE /api/promotionalProduct': ['Admin', 'Catalog'],
};

/**
 * A member's routes act on a real account (one with a second factor to lose), so a refusal that changed nothing is
 * shown on something there was to change; other ids name nothing. A list route is asked for a page, as the console
 * asks: without a limit the member directory is an export.
 */
const memberId = (
  await createAccountService({ db: ctx.db }).add({ email: 'matrix-member@example.com', password: 'Matrix-Member-1' })
).accountId;
await ctx.pool.query(`insert into recovery_codes (account_id, code_hash) values ($1, 'matrix')`, [memberId]);
const addressOf = (route: { method: string; url: string }) =>
  route.url.startsWith('/api/admin/members/:id')
    ? route.url.replace(':id', memberId)
    : route.url === '/api/admin/members'
      ? `${route.url}?limit=5`
      : route.url.replace(':membershipId', '999999').replace(':orderId', '999999').replace(':id', '999999');

function expected(
  policy: 'public' | 'member' | readonly ConsoleRole[] | undefined,
  caller: keyof typeof callers,
): 'allowed' | 401 | 403 {
  if (policy === 'public') return 'allowed';
  if (
    caller === 'no token' ||
    caller === 'expired token' ||
    caller === 'wrong audience' ||
    caller === "web client's admin token without a key"
  )
    return 401;
  if (Array.isArray(policy)) return (policy as readonly string[]).includes(caller) ? 'allowed' : 403;
  return 'allowed';
}

describe('authorization matrix over the whole route table', () => {
  it('gives every /api route an explicit policy, the one this file writes down for it', () => {
    const declared = Object.fromEntries(
      apiRoutes.map((r) => [
        `${r.method} ${r.url}`,
        r.policy === 'public' || r.policy === 'member' || r.policy === undefined ? r.policy : CONSOLE_RIGHTS[r.policy],
      ]),
    );
    expect(declared).toEqual(POLICY);
  });

  it('knows every call of SPEC section 7', () => {
    const listed = new Set(apiRoutes.map((r) => `${r.method} ${r.url}`));
    for (const call of [
      'GET /api/test/auth',
      'GET /api/membership',
      'GET /api/membership/:id',
      'PUT /api/membership/:id',
      'DELETE /api/membership/:id',
      'POST /api/membership',
      'GET /api/discountPackage',
      'POST /api/discountPackage',
      'PUT /api/discountPackage/:id',
      'DELETE /api/discountPackage/:id',
      'PUT /api/discountPackageProduct',
      'POST /api/discountPackageProduct',
      'DELETE /api/discountPackageProduct',
      'GET /api/product',
      'GET /api/product/refresh',
      'GET /api/promotionalProduct/:membershipId',
      'POST /api/promotionalProduct',
      'POST /api/promotionalProduct/batch',
      'DELETE /api/promotionalProduct',
      'GET /api/userdetails/',
      'POST /api/userdetails/internal',
      'GET /api/autologin',
      'GET /api/UserSubscriptions',
      'DELETE /api/UserSubscriptions/:id',
      'GET /api/PaymentHistory',
    ]) {
      expect(listed.has(call), call).toBe(true);
    }
  });

  for (const caller of Object.keys(callers) as (keyof typeof callers)[]) {
    it(`answers ${caller} as the policy says, and refused calls change nothing`, async () => {
      for (const route of apiRoutes) {
        const want = expected(POLICY[`${route.method} ${route.url}`], caller);
        const before = want === 'allowed' ? null : await snapshot();
        const url = addressOf(route);
        const response = await ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers: { ...(await callers[caller]()), 'content-type': 'application/json' },
          payload:
            route.method === 'GET'
              ? undefined
              : JSON.stringify({ name: 'Changed', productId: 1001, membershipId: 1, discountPackageId: 1, price: 1 }),
        });
        const label = `${caller}: ${route.method} ${route.url} -> ${response.statusCode}`;
        if (want === 'allowed') expect([401, 403], label).not.toContain(response.statusCode);
        else {
          expect(response.statusCode, label).toBe(want);
          expect(response.json(), label).toMatchObject({ isError: true, data: [] });
          expect(await snapshot(), label).toBe(before);
        }
      }
    });
  }

  it('refuses tokens signed by another key, ID tokens, other issuers, alg none and HS256 with the public key', async () => {
    const bad = [
      await ctx.keys.token({ ...ADMIN }, { foreignKey: true }),
      await ctx.keys.token({ ...ADMIN }, { typ: 'JWT' }),
      await ctx.keys.token({ ...ADMIN, token_use: 'id' }, { typ: 'JWT', audience: 'ums-web' }),
      await ctx.keys.token({ ...ADMIN }, { issuer: 'https://evil.example/oidc' }),
      'not-a-jwt',
      unsigned(),
      await hmacWithPublicKey(),
    ];
    // Refused for the token itself: not for a missing proof or key, which would hide a signature accepted by mistake.
    for (const token of bad) {
      const response = await ctx.app.inject({ url: '/api/membership', headers: { authorization: `DPoP ${token}` } });
      expect([response.statusCode, response.json().message]).toEqual([
        401,
        'The access token is not valid. Please sign in again.',
      ]);
    }
  });

  it("keeps a member to their own data: another member's subscription answers 404", async () => {
    const mine = await ctx.app.inject({ url: '/api/UserSubscriptions', headers: await ctx.signedIn(MEMBER) });
    const [first] = mine.json().data as { subscriptionId: number }[];
    expect(first).toBeDefined();
    const before = await snapshot();
    const theirs = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/UserSubscriptions/${first!.subscriptionId}`,
      headers: await ctx.signedIn(OTHER_MEMBER),
    });
    expect(theirs.statusCode).toBe(404);
    expect(await snapshot()).toBe(before);
    const otherHistory = await ctx.app.inject({
      url: '/api/PaymentHistory',
      headers: await ctx.signedIn(OTHER_MEMBER),
    });
    expect(otherHistory.json().data).toEqual([]);
    const ownHistory = await ctx.app.inject({ url: '/api/PaymentHistory', headers: await ctx.signedIn(MEMBER) });
    expect(ownHistory.json().data.length).toBeGreaterThan(0);
  });
});

describe('console roles inside a route the role may call', () => {
  const call = async (who: typeof ADMIN, url: string, method: 'GET' | 'POST' = 'GET') =>
    ctx.app.inject({ method, url, headers: await ctx.signedIn(who) });
  const auditCount = async () => Number((await ctx.pool.query('select count(*) from audit_entries')).rows[0].count);

  it('names what the role lacks: Support is refused the catalog, Catalog a member, and a member the console', async () => {
    for (const [who, url, message] of [
      [SUPPORT, '/api/membership', 'Your role does not include the catalog.'],
      [CATALOG, '/api/admin/members', 'Your role does not include member data.'],
      [MEMBER, '/api/admin/audit', 'Your role does not include the admin console.'],
      [SUPPORT, '/api/admin/overview', 'Your role does not include the catalog.'],
    ] as const) {
      const response = await call(who, url);
      expect([response.statusCode, response.json().message], `${who.sub} ${url}`).toEqual([403, message]);
    }
  });

  it('refuses Support the whole member directory in one answer (an export), and answers it a page at a time', async () => {
    const refused = await call(SUPPORT, '/api/admin/members');
    expect([refused.statusCode, refused.json().message]).toEqual([
      403,
      'Ask for the member directory a page at a time (limit): the whole directory at once is an export.',
    ]);
    expect((await call(SUPPORT, '/api/admin/members?limit=25')).statusCode).toBe(200);
    expect((await call(ADMIN, '/api/admin/members')).statusCode).toBe(200);
  });

  it("lets Catalog revert a change to the catalog's memberships", async () => {
    const headers = { ...(await ctx.signedIn(CATALOG)), 'content-type': 'application/json' };
    const membership = (await call(CATALOG, '/api/membership/1')).json().data[0];
    const changed = await ctx.app.inject({
      method: 'PUT',
      url: '/api/membership/1',
      headers,
      payload: {
        name: 'Renamed by Catalog',
        description: membership.description,
        productId: membership.productId,
        discountPackageId: membership.discountPackageId,
        numberOfFreeEligibleItems: membership.numberOfFreeEligibleItems,
        membershipLengthInMonths: membership.membershipLengthInMonths,
      },
    });
    expect(changed.statusCode).toBe(200);
    const { rows } = await ctx.pool.query(
      `select id from audit_entries where entity = 'membership' and entity_id = '1' order by id desc limit 1`,
    );
    const reverted = await call(CATALOG, `/api/admin/audit/${rows[0].id}/revert`, 'POST');
    expect([reverted.statusCode, reverted.json().message]).toEqual([200, 'Change reverted']);
    expect((await call(CATALOG, '/api/membership/1')).json().data[0].name).toBe(membership.name);
  });

  it("refuses Support member data as CSV files (Admin's alone): the directory and a member's orders, recording no export", async () => {
    const before = await auditCount();
    for (const url of [
      '/api/admin/members?format=csv',
      '/api/admin/members/00000000-0000-4000-8000-0000000000ac/orders?format=csv',
    ]) {
      const refused = await call(SUPPORT, url);
      expect([refused.statusCode, refused.json().message], url).toEqual([
        403,
        'Your role does not include exporting member data.',
      ]);
    }
    expect(await auditCount()).toBe(before);
    expect((await call(SUPPORT, '/api/admin/members?limit=5')).statusCode).toBe(200);
  });

  it("shows Catalog the catalog's audit entries and none about a member, and refuses it a member's entries", async () => {
    await appendAudit(ctx.db, {
      actor: { id: ADMIN.sub, email: ADMIN.email },
      action: 'member-groups-changed',
      entity: 'member',
      entityId: '00000000-0000-4000-8000-0000000000aa',
      before: { groups: [] },
      after: { groups: ['Support'] },
    });
    await appendAudit(ctx.db, {
      actor: { id: CATALOG.sub, email: CATALOG.email },
      action: 'membership-updated',
      entity: 'membership',
      entityId: '1',
      before: { name: 'Before' },
      after: { name: 'After' },
    });
    const entities = async (who: typeof ADMIN) =>
      new Set(((await call(who, '/api/admin/audit')).json().data as { entity: string }[]).map((e) => e.entity));
    for (const who of [ADMIN, SUPPORT])
      expect([...(await entities(who))]).toEqual(expect.arrayContaining(['member', 'membership']));
    const catalogSees = await entities(CATALOG);
    expect([catalogSees.has('membership'), catalogSees.has('member')]).toEqual([true, false]);
    const csv = await call(CATALOG, '/api/admin/audit?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain('member-groups-changed');
    const refused = await call(CATALOG, '/api/admin/audit?entity=member');
    expect([refused.statusCode, refused.json().message]).toEqual([403, 'Your role does not include member data.']);
  });

  it('refuses taking the Admin group from the last administrator (409), changing nothing', async () => {
    const { accountId } = await createAccountService({ db: ctx.db }).add({
      email: 'only-admin@example.com',
      password: 'Only-Admin-Pass-1',
      admin: true,
    });
    const admins = await ctx.pool.query(`select 1 from accounts where 'Admin' = any(groups)`);
    expect(admins.rowCount).toBe(1);
    const before = [await snapshot(), await auditCount()];
    // ADMIN's token is an administrator's from the provider without an account here: only the rule stops it.
    const refused = await ctx.app.inject({
      method: 'PUT',
      url: `/api/admin/members/${accountId}/groups`,
      headers: { ...(await ctx.signedIn(ADMIN)), 'content-type': 'application/json' },
      payload: { groups: ['Support'] },
    });
    expect([refused.statusCode, refused.json().message]).toEqual([
      409,
      'The last administrator cannot lose the Admin group: give it to someone else first.',
    ]);
    expect([await snapshot(), await auditCount()]).toEqual(before);
  });

  it("refuses Catalog the revert of a change to a member's groups, changing nothing", async () => {
    const id = await appendAudit(ctx.db, {
      actor: { id: ADMIN.sub, email: ADMIN.email },
      action: 'member-groups-changed',
      entity: 'member',
      entityId: '00000000-0000-4000-8000-0000000000ab',
      before: { groups: ['Admin'] },
      after: { groups: [] },
    });
    const before = [await snapshot(), await auditCount()];
    const refused = await call(CATALOG, `/api/admin/audit/${id}/revert`, 'POST');
    expect([refused.statusCode, refused.json().message]).toEqual([
      403,
      "Your role does not include changing members' groups.",
    ]);
    expect([await snapshot(), await auditCount()]).toEqual(before);
  });
});

describe("the web client's tokens are bound to the browser's key; another provider's stay bearer tokens", () => {
  it('refuses an embedded-provider token without cnf.jkt, whatever the scheme or client, and accepts it bound with its proof', async () => {
    // The web client's, and one that names no client: the embedded provider issues no unbound token to anyone.
    for (const unbound of [
      await ctx.keys.token({ ...MEMBER, cnf: undefined }),
      await ctx.keys.token({ ...MEMBER, cnf: undefined, client_id: undefined }),
    ]) {
      for (const authorization of [`Bearer ${unbound}`, `DPoP ${unbound}`]) {
        const refused = await ctx.app.inject({ url: '/api/userdetails/', headers: { authorization } });
        const scheme = authorization.split(' ')[0];
        expect([refused.statusCode, refused.json().message], scheme).toEqual([401, DPOP_REFUSED]);
        expect(refused.headers['www-authenticate'], scheme).toMatch(/^DPoP error="invalid_dpop_proof"/);
      }
    }
    expect((await ctx.app.inject({ url: '/api/userdetails/', headers: await ctx.signedIn(MEMBER) })).statusCode).toBe(
      200,
    );
  });

  it('keeps bearer tokens from Cognito, which has no DPoP', async () => {
    const cognito = await testApp({
      env: { AUTH_PROVIDER: 'cognito', AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: AUDIENCE },
    });
    const bearer = await cognito.keys.token({ ...MEMBER, cnf: undefined });
    const response = await cognito.app.inject({
      url: '/api/test/auth',
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(response.statusCode).toBe(200);
  });

  it("answers a member of another provider's accounts that addresses are changed there (501), changing nothing", async () => {
    const cognito = await testApp({
      env: { AUTH_PROVIDER: 'cognito', AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: AUDIENCE },
    });
    const bearer = await cognito.keys.token({ ...MEMBER, cnf: undefined });
    for (const [method, url] of [
      ['GET', '/api/me/email-change'],
      ['POST', '/api/me/email-change/resend'],
      ['DELETE', '/api/me/email-change'],
    ] as const) {
      const response = await cognito.app.inject({ method, url, headers: { authorization: `Bearer ${bearer}` } });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(501);
      expect(response.json()).toMatchObject({
        isError: true,
        message: 'Your email address is managed by your identity provider: change it there.',
      });
    }
  });
});
