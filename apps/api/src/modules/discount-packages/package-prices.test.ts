import { randomBytes } from 'node:crypto';
import type { DiscountPackage } from '@ums/contracts';
import { signIn } from '@ums/testkit/oidc-browser';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, providerApp } from '../../../test/oidc-client.js';
import { stripeLocks } from '../../../test/stripe-locks.js';
import { entityStripe, stripeKeys } from '../../db/write-stripes.js';
import { createAccountService } from '../../identity/accounts.service.js';

// Administrators typing prices into different discount packages at once (issue 39, decision 036): a price save
// takes its package's stripe of the catalog's lock, and its writes move that stripe of the versions and counts.

const PASSWORD = 'Package-Prices-Pass-42!';
const server = await providerApp();
const { base, database } = server;
const pool = database.pool;
const run = randomBytes(3).toString('hex');
const accounts = createAccountService({ db: database.db });
const email = `prices-${run}@prices.example`;
await accounts.add({ email, password: PASSWORD, admin: true, firstName: 'Price', lastName: 'Admin' });
const token = (await signIn(base, email, PASSWORD)).access_token;

const api = apiCaller(base, token);
/** An answer's status and envelope, its rows typed as the call's contract says. */
async function call<T>(method: string, path: string, body?: unknown) {
  const { status, body: envelope } = await api(method, path, body);
  return { status, ...(envelope as { data: T[]; message?: string; page?: { total: number } }) };
}

let product = 0;
/**
 * Packages with one priced product each, made one after another: 16 consecutive ids, so each has a stripe of its own
 * (the one in stripe 0 is left out).
 */
const packages: number[] = [];
beforeAll(async () => {
  expect((await call('GET', '/api/product/refresh')).status).toBe(200);
  product = (await pool.query<{ id: number }>('select product_id as id from products order by product_id limit 1'))
    .rows[0]!.id;
  for (let n = 0; n < 16; n++) {
    const created = await call<DiscountPackage>('POST', '/api/discountPackage', {
      name: `Prices ${run} ${n}`,
      description: 'Priced at once',
    });
    const id = created.data[0]!.discountPackageId;
    await call('POST', '/api/discountPackageProduct', { discountPackageId: id, productId: product, price: 10 });
    packages.push(id);
  }
  // Stripe 0 is also where writers that name no stripe go: the packages used below stay out of it.
  packages.splice(0, packages.length, ...packages.filter((id) => entityStripe(id) !== 0));
  expect(new Set(packages.map(entityStripe)).size).toBe(packages.length);
});

const setPrice = (discountPackageId: number, price: number) =>
  call<DiscountPackage>('PUT', '/api/discountPackageProduct', { discountPackageId, productId: product, price });

const { writeInFlight: saveInFlight, whileHeld, besideHeld } = stripeLocks(database);

describe('the stripes', () => {
  it('are the rows the code reads and locks, for each striped value', async () => {
    const keys = async (table: string, pattern: string) =>
      (await pool.query<{ key: string }>(`select key from ${table} where key ~ $1`, [pattern])).rows
        .map((row) => row.key)
        .sort();
    expect(await keys('data_versions', '^catalog(#|$)')).toEqual(stripeKeys('catalog').sort());
    expect(await keys('data_versions', '^audit(#|$)')).toEqual(stripeKeys('audit').sort());
    expect(await keys('list_counts', '^audit_entries(#|$)')).toEqual(stripeKeys('audit_entries').sort());
    // The catalog lists' counts (migration 0023) have a row for each stripe written to so far, named as readers read.
    for (const table of ['products', 'memberships', 'discount_packages', 'promotional_products'] as const) {
      const written = await keys('list_counts', `^${table}(#|$)`);
      expect(written.length).toBeGreaterThan(table === 'discount_packages' ? 1 : 0);
      expect(stripeKeys(table)).toEqual(expect.arrayContaining(written));
    }
  });

  it("refuse an audit entry whose stripe's count row is gone, rather than leave it uncounted", async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`delete from list_counts where key = 'audit_entries#3'`);
      await client.query(`select set_config('ums.write_stripe', '3', true)`);
      await expect(
        client.query(`insert into audit_entries (actor_id, action, entity, entity_id)
                      values ('system', 'discount-package-updated', 'discountPackage', '3')`),
      ).rejects.toThrow("The audit trail's count rows are missing (migration 0022): the write was not made");
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

describe('price saves in different discount packages', () => {
  it('save while a price save in another package is in flight, without waiting for it', async () => {
    const [held, other] = [packages[0]!, packages[1]!];
    expect(
      await besideHeld(
        () => saveInFlight(held),
        () => setPrice(other, 11),
      ),
    ).toMatchObject({ status: 200 });
  });

  it('of the same package wait for the save in flight, then save', async () => {
    const held = packages[2]!;
    expect(
      (
        await whileHeld(
          () => saveInFlight(held),
          () => setPrice(held, 12),
        )
      ).status,
    ).toBe(200);
    expect((await call<DiscountPackage>('GET', `/api/discountPackage/${held}`)).data[0]!.products).toEqual([
      expect.objectContaining({ productId: product, price: 12 }),
    ]);
  });

  it('go on beside the removal of a package in another stripe (decision 045), without holding it back', async () => {
    const [held, removed] = [packages[3]!, packages[13]!];
    expect(entityStripe(held)).not.toBe(entityStripe(removed));
    const removal = await besideHeld(
      () => saveInFlight(held),
      () => call('DELETE', `/api/discountPackage/${removed}`),
    );
    expect(removal).toMatchObject({ status: 200 });
    expect((await call('GET', `/api/discountPackage/${removed}`)).status).toBe(404);
  });

  it('all land when ten are sent at once, and the kept lists and the audit trail’s count show every one', async () => {
    // Packages this administrator has saved no price in (a save within a minute of their last one folds into it).
    const ten = packages.slice(3, 13);
    expect(ten).toHaveLength(10);
    const listed = async () =>
      new Map(
        (await call<DiscountPackage>('GET', '/api/discountPackage?limit=100')).data.map((p) => [
          p.discountPackageId,
          p.products.find((entry) => entry.productId === product)?.price,
        ]),
      );
    const entries = async () => (await call('GET', '/api/admin/audit?limit=1')).page!.total;
    // Both answers are kept in memory under their versions now.
    await listed();
    const before = await entries();

    const answers = await Promise.all(ten.map((id, n) => setPrice(id, 100 + n)));
    expect(answers.map((answer) => answer.status)).toEqual(ten.map(() => 200));

    const after = await listed();
    expect(ten.map((id) => after.get(id))).toEqual(ten.map((_, n) => 100 + n));
    expect(await entries()).toBe(before + 10);
  });
});

describe('a price save’s answer and audit entry', () => {
  it('answer the package as a read of it after the save does, and record only the price that changed', async () => {
    const created = await call<DiscountPackage>('POST', '/api/discountPackage', {
      name: `Answered ${run}`,
      description: 'Three products',
    });
    const id = created.data[0]!.discountPackageId;
    const three = (
      await pool.query<{ id: number }>('select product_id as id from products order by product_id limit 3')
    ).rows.map((row) => row.id);
    for (const [n, productId] of three.entries()) {
      const price = [10.5, null, 7][n];
      expect(
        (await call('POST', '/api/discountPackageProduct', { discountPackageId: id, productId, price })).status,
      ).toBe(201);
    }
    const lastEntry = async () =>
      (
        await pool.query<{ before: unknown; after: unknown }>(
          `select before, after from audit_entries where entity = 'discount-package' and entity_id = $1
           order by id desc limit 1`,
          [String(id)],
        )
      ).rows[0];

    // A product without a price gets one; then the priced one's price is cleared.
    for (const [productId, price, was] of [
      [three[1]!, 12.25, null],
      [three[0]!, null, 10.5],
    ] as const) {
      const saved = await call<DiscountPackage>('PUT', '/api/discountPackageProduct', {
        discountPackageId: id,
        productId,
        price,
      });
      expect(saved.status).toBe(200);
      expect(saved.message).toBe('Package price saved');
      const read = await call<DiscountPackage>('GET', `/api/discountPackage/${id}`);
      expect(saved.data).toEqual(read.data);
      expect(read.data[0]!.products.find((p) => p.productId === productId)?.price).toBe(price);
      expect(await lastEntry()).toEqual({
        before: { products: { [productId]: { price: was } } },
        after: { products: { [productId]: { price } } },
      });
    }
    expect(
      (await call<DiscountPackage>('GET', `/api/discountPackage/${id}`)).data[0]!.products.map((p) => p.price),
    ).toEqual(expect.arrayContaining([null, 12.25, 7]));
  });

  it('answer 404 naming the package when there is no such package', async () => {
    const answer = await call('PUT', '/api/discountPackageProduct', {
      discountPackageId: 987654,
      productId: product,
      price: 1,
    });
    expect(answer).toMatchObject({ status: 404, message: 'Discount package 987654 was not found' });
  });

  it('answer 404 naming the product and the package when the product is not in it, and change nothing', async () => {
    const id = packages[0]!;
    const other = (
      await pool.query<{ id: number }>(
        `select product_id as id from products where product_id <> $1 order by product_id limit 1`,
        [product],
      )
    ).rows[0]!.id;
    const before = (await call<DiscountPackage>('GET', `/api/discountPackage/${id}`)).data;
    const answer = await call('PUT', '/api/discountPackageProduct', {
      discountPackageId: id,
      productId: other,
      price: 1,
    });
    expect(answer.status).toBe(404);
    expect(answer.message).toBe(`Product ${other} in discount package ${id} was not found`);
    expect((await call<DiscountPackage>('GET', `/api/discountPackage/${id}`)).data).toEqual(before);
  });
});
