import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRICE_CHANGED } from '../src/modules/audit/audit.js';
import { growData } from '../src/seed/grow-data.js';
import { seedDemoData } from '../src/seed/demo-data.js';
import { paths } from '../src/runtime.js';
import { ADMIN, MEMBER, testApp } from './helper.js';
import { watchRoundTrips, watchStatements } from './pool-statements.js';

const ctx = await testApp();

/** Counts every statement sent to PostgreSQL through the app's pool, or every wait for its answers. */
function counter(pool: pg.Pool, watch: typeof watchStatements | typeof watchRoundTrips = watchStatements) {
  let count = 0;
  watch(pool, () => count++);
  return {
    async during(work: () => Promise<unknown>) {
      const before = count;
      await work();
      return count - before;
    },
  };
}

// The app runs as the application role (decision 025): its pool is the one whose statements count.
const statements = counter(ctx.appRole.pool);
const waits = counter(ctx.appRole.pool, watchRoundTrips);
/** The most statements any call may need (a write: begin, the work, commit and its answer). */
const BUDGET = 8;

async function call(method: 'GET' | 'PUT', url: string, who: typeof ADMIN, body?: unknown) {
  const headers = { ...(await ctx.signedIn(who)), 'content-type': 'application/json' };
  const response = await ctx.app.inject({ method, url, headers, ...(body ? { payload: JSON.stringify(body) } : {}) });
  expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 200)}`).toBe(200);
  return response.json() as { data: { discountPackageId?: number; membershipId?: number; products?: unknown[] }[] };
}

let packageId = 0;
/** The package's products, one for each measure: each measure's price save is the first of its product's price. */
let pricedProducts: number[] = [];
let membershipId = 0;
let membershipFields: Record<string, unknown> = {};
/** Another package's price, whose saves the waits are counted in. */
let waitsPrice = { discountPackageId: 0, productId: 0 };
const paged = (path: string, q: string, sort: string) => [
  `${path}?limit=25`,
  `${path}?limit=25&q=${encodeURIComponent(q)}`,
  `${path}?limit=25&sort=${sort}`,
];
let price = 12.5;
const calls = (productId: number) =>
  [
    // A catalog write first: the catalog reads after it are built afresh, not served from the per-version cache. A
    // new price each time, so the write is audited each time.
    ['PUT', '/api/discountPackageProduct', ADMIN, { discountPackageId: packageId, productId, price: price++ }],
    ['PUT', `/api/discountPackage/${packageId}`, ADMIN, { name: `Budget ${price}`, description: null }],
    ['PUT', `/api/membership/${membershipId}`, ADMIN, { ...membershipFields, description: `Budget ${price}` }],
    ['GET', '/api/membership', ADMIN],
    ...paged('/api/membership', 'a', '-membershipLengthInMonths').map((url) => ['GET', url, ADMIN]),
    ['GET', `/api/membership/${membershipId}`, ADMIN],
    ['GET', '/api/discountPackage', ADMIN],
    ...paged('/api/discountPackage', 'a', '-name').map((url) => ['GET', url, ADMIN]),
    ['GET', `/api/discountPackage/${packageId}`, ADMIN],
    ['GET', '/api/product', ADMIN],
    ...paged('/api/product', 'panel', '-retailPrice').map((url) => ['GET', url, ADMIN]),
    ['GET', '/api/promotionalProduct', ADMIN],
    ...paged('/api/promotionalProduct', 'a', 'productName').map((url) => ['GET', url, ADMIN]),
    ['GET', `/api/promotionalProduct/${membershipId}`, ADMIN],
    ...paged(`/api/promotionalProduct/${membershipId}`, 'a', '-productName').map((url) => ['GET', url, ADMIN]),
    ['GET', '/api/admin/overview', ADMIN],
    ['GET', '/api/userdetails/', MEMBER],
    ['GET', '/api/UserSubscriptions', MEMBER],
    ...paged('/api/UserSubscriptions', 'a', '-pricePerInterval').map((url) => ['GET', url, MEMBER]),
    ['GET', '/api/PaymentHistory', MEMBER],
    ...paged('/api/PaymentHistory', 'panel', 'productNames').map((url) => ['GET', url, MEMBER]),
  ] as [method: 'GET' | 'PUT', url: string, who: typeof ADMIN, body?: unknown][];

/** Each call's statements, the price save's of `productId` (by default the next of the package's products). */
async function measure(productId = pricedProducts.shift()!) {
  const counts: Record<string, number> = {};
  for (const [method, url, who, body] of calls(productId)) {
    counts[`${method} ${url.replace(/\/\d+(?=$|\?)/, '/:id')}`] = await statements.during(() =>
      call(method, url, who, body),
    );
  }
  return counts;
}

describe('SQL statements per call do not grow with the data', () => {
  beforeAll(async () => {
    await seedDemoData(ctx.db, paths.catalogFile, MEMBER.sub);
    const packages = await call('GET', '/api/discountPackage', ADMIN);
    packageId = packages.data[0]!.discountPackageId!;
    pricedProducts = (packages.data[0]!.products as { productId: number }[]).map((p) => p.productId);
    // One for each measure() below.
    expect(pricedProducts.length).toBeGreaterThan(3);
    const other = packages.data[1]!;
    waitsPrice = {
      discountPackageId: other.discountPackageId!,
      productId: (other.products as { productId: number }[])[0]!.productId,
    };
    const memberships = await call('GET', '/api/membership', ADMIN);
    membershipId = memberships.data[0]!.membershipId!;
    const { name, productId, discountPackageId, numberOfFreeEligibleItems, membershipLengthInMonths } = memberships
      .data[0] as Record<string, unknown>;
    membershipFields = { name, productId, discountPackageId, numberOfFreeEligibleItems, membershipLengthInMonths };
  });

  it('saves a package, a membership or a price in six statements (proof, begin, lock, save, audit entry, commit)', async () => {
    // A price's first save in a minute finds no entry to fold into and appends one, the next folds into it: one
    // statement does either (decision 051).
    const productId = pricedProducts.shift()!;
    const saves = [await measure(productId), await measure(productId)].map((counts) => [
      counts['PUT /api/discountPackageProduct'],
      counts['PUT /api/discountPackage/:id'],
      counts['PUT /api/membership/:id'],
    ]);
    expect(saves).toEqual([
      [6, 6, 6],
      [6, 6, 6],
    ]);
  });

  it('waits for PostgreSQL four times in a save of a package, a membership or a price (the proof, begin, the lock with the save, the audit entry with commit)', async () => {
    // Decision 051: the save is sent behind its lock, and COMMIT behind the audit entry, without waiting in between.
    const save = (value: number) => call('PUT', '/api/discountPackageProduct', ADMIN, { ...waitsPrice, price: value });
    const name = `Waits ${price}`;
    expect([
      await waits.during(() => call('PUT', `/api/discountPackage/${packageId}`, ADMIN, { name })),
      await waits.during(() =>
        call('PUT', `/api/membership/${membershipId}`, ADMIN, { ...membershipFields, description: name }),
      ),
      // A price's first save in a minute appends its entry; the second folds into it.
      await waits.during(() => save(price++)),
      await waits.during(() => save(price++)),
    ]).toEqual([4, 4, 4, 4]);
    const entries = await ctx.pool.query<{ before: { products: Record<string, unknown> } }>(
      `select before from audit_entries where entity = 'discount-package' and entity_id = $1 and action = $2
       and at > now() - interval '1 minute'`,
      [String(waitsPrice.discountPackageId), PRICE_CHANGED],
    );
    expect(entries.rows.map((entry) => Object.keys(entry.before.products))).toEqual([[String(waitsPrice.productId)]]);
  });

  it('answers with the same number of statements for about 10 rows and for 10,000', { timeout: 120_000 }, async () => {
    // Each search asked once first: a search's answer is kept from its second ask, which reads the data version.
    await measure();
    const small = await measure();
    await growData(ctx.pool, {
      products: 10_000,
      memberships: 1000,
      promotionalPerMembership: 10,
      discountPackages: 10,
      productsPerPackage: 100,
      member: { subject: MEMBER.sub, orders: 10_000, subscriptions: 50 },
    });
    const large = await measure();
    // The lists really grew.
    expect((await call('GET', '/api/membership', ADMIN)).data.length).toBeGreaterThan(1000);
    expect((await call('GET', '/api/PaymentHistory', MEMBER)).data.length).toBeGreaterThan(10_000);
    expect((await call('GET', '/api/product', ADMIN)).data.length).toBeGreaterThan(10_000);
    expect(large).toEqual(small);
    for (const [name, count] of Object.entries(large)) expect(count, name).toBeLessThanOrEqual(BUDGET);
    console.info('SQL statements per call:', large);
  });
});
