import type { DiscountPackage, Membership } from '@ums/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/runtime.js';
import { seedDemoData } from '../src/seed/demo-data.js';
import { entityStripe } from '../src/db/write-stripes.js';
import { adminCalls } from './admin-calls.js';
import { MEMBER, testApp } from './helper.js';
import { membershipFieldsOf } from './membership-fields.js';
import { waitFor } from './wait-for.js';

// A membership's and a package's fields are saved in one statement that also reads the state before and the answer
// after (decision 039): the answer must still be what a read after the save gives, and the audit entry only what
// changed.

const ctx = await testApp();
await seedDemoData(ctx.db, paths.catalogFile, MEMBER.sub);

const call = adminCalls(ctx);

const lastEntry = async (entity: string, id: number) =>
  (
    await ctx.pool.query<{ action: string; before: unknown; after: unknown; label: string | null }>(
      `select action, before, after, label from audit_entries where entity = $1 and entity_id = $2
       order by id desc limit 1`,
      [entity, String(id)],
    )
  ).rows[0];

let products: { productId: number; productName: string; retailPrice: number }[] = [];
let packages: DiscountPackage[] = [];
beforeAll(async () => {
  packages = (await call<DiscountPackage>('GET', '/api/discountPackage')).data;
  products = packages
    .flatMap((p) => p.products)
    .filter((p, n, all) => all.findIndex((q) => q.productId === p.productId) === n);
  expect(packages.length).toBeGreaterThan(1);
  expect(products.length).toBeGreaterThan(1);
});

describe('PUT /api/membership/{id}', () => {
  async function newMembership() {
    const created = await call<Membership>('POST', '/api/membership', {
      name: `Saved ${Math.random().toString(36).slice(2, 8)}`,
      description: 'Before',
      productId: products[0]!.productId,
      discountPackageId: packages[0]!.discountPackageId,
      numberOfFreeEligibleItems: 1,
      membershipLengthInMonths: 12,
    });
    expect(created.status).toBe(201);
    await call('POST', '/api/promotionalProduct/batch', [
      { membershipId: created.data[0]!.membershipId, productId: products[1]!.productId },
    ]);
    return (await call<Membership>('GET', `/api/membership/${created.data[0]!.membershipId}`)).data[0]!;
  }

  it('answers the membership as a read after the save does, with the new product’s and package’s names', async () => {
    const before = await newMembership();
    const [product, pkg] = [products[1]!, packages[1]!];
    const saved = await call<Membership>('PUT', `/api/membership/${before.membershipId}`, {
      ...membershipFieldsOf(before),
      description: null,
      productId: product.productId,
      discountPackageId: pkg.discountPackageId,
      membershipLengthInMonths: 24,
    });
    expect(saved.status).toBe(200);
    expect(saved.message).toBe('Membership saved');
    const read = await call<Membership>('GET', `/api/membership/${before.membershipId}`);
    expect(saved.data).toEqual(read.data);
    expect(saved.data[0]).toMatchObject({
      description: null,
      productId: product.productId,
      productName: product.productName,
      discountPackageId: pkg.discountPackageId,
      discountPackageName: pkg.name,
      membershipLengthInMonths: 24,
      promotionalProducts: [{ productId: product.productId, name: product.productName }],
    });
  });

  it('records only the fields that changed, the membership’s name as the entry’s label', async () => {
    const before = await newMembership();
    await call('PUT', `/api/membership/${before.membershipId}`, {
      ...membershipFieldsOf(before),
      discountPackageId: null,
    });
    expect(await lastEntry('membership', before.membershipId)).toEqual({
      action: 'membership-updated',
      before: { discountPackageId: before.discountPackageId },
      after: { discountPackageId: null },
      label: before.name,
    });
    const saved = await call<Membership>('GET', `/api/membership/${before.membershipId}`);
    expect(saved.data[0]).toMatchObject({ discountPackageId: null, discountPackageName: null });
  });

  it('refuses a product or a package that does not exist, naming it on its field, and saves nothing', async () => {
    const before = await newMembership();
    for (const [change, message, field] of [
      [{ productId: 424242 }, 'Product 424242 does not exist', { productId: ['Product does not exist'] }],
      [
        { discountPackageId: 4242 },
        'Discount package 4242 does not exist',
        { discountPackageId: ['Discount package does not exist'] },
      ],
    ] as const) {
      const answer = await call('PUT', `/api/membership/${before.membershipId}`, {
        ...membershipFieldsOf(before),
        name: 'Not saved',
        ...change,
      });
      expect(answer).toMatchObject({ status: 400, message, errors: field });
    }
    expect((await call<Membership>('GET', `/api/membership/${before.membershipId}`)).data).toEqual([before]);
    expect((await lastEntry('membership', before.membershipId))?.action).toBe('promotional-products-added');
  });

  it('names the product first when neither the product nor the package exists', async () => {
    const before = await newMembership();
    const answer = await call('PUT', `/api/membership/${before.membershipId}`, {
      ...membershipFieldsOf(before),
      productId: 424242,
      discountPackageId: 4242,
    });
    expect(answer).toMatchObject({ status: 400, message: 'Product 424242 does not exist' });
  });

  it('of one membership sent ten at once each record as before what the one saved before it left', async () => {
    const before = await newMembership();
    const descriptions = Array.from({ length: 10 }, (_, n) => `At once ${n}`);
    const answers = await Promise.all(
      descriptions.map((description) =>
        call<Membership>('PUT', `/api/membership/${before.membershipId}`, {
          ...membershipFieldsOf(before),
          description,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(descriptions.map(() => 200));
    const { rows: entries } = await ctx.pool.query<{ before: { description: string }; after: { description: string } }>(
      `select before, after from audit_entries where entity = 'membership' and entity_id = $1
       and action = 'membership-updated' order by id`,
      [String(before.membershipId)],
    );
    expect(entries).toHaveLength(10);
    // Saved one after another under the catalog's lock: each entry starts where the one before it ended.
    expect(entries.map((entry) => entry.before.description)).toEqual([
      before.description,
      ...entries.slice(0, -1).map((entry) => entry.after.description),
    ]);
    expect(new Set(entries.map((entry) => entry.after.description))).toEqual(new Set(descriptions));
    const read = await call<Membership>('GET', `/api/membership/${before.membershipId}`);
    expect(read.data[0]!.description).toBe(entries.at(-1)!.after.description);
  });

  it('answers 404 for a membership that does not exist, and 400 first when its product does not exist either', async () => {
    const fields = membershipFieldsOf(await newMembership());
    expect(await call('PUT', '/api/membership/987654', fields)).toMatchObject({
      status: 404,
      message: 'Membership 987654 was not found',
    });
    expect(await call('PUT', '/api/membership/987654', { ...fields, productId: 424242 })).toMatchObject({
      status: 400,
      message: 'Product 424242 does not exist',
    });
  });
});

describe('PUT /api/discountPackage/{id}', () => {
  it('answers the package as a read after the save does, and records only the name and description', async () => {
    const pkg = packages[0]!;
    const saved = await call<DiscountPackage>('PUT', `/api/discountPackage/${pkg.discountPackageId}`, {
      name: `${pkg.name} renamed`,
      description: null,
    });
    expect(saved.status).toBe(200);
    expect(saved.message).toBe('Discount package saved');
    const read = await call<DiscountPackage>('GET', `/api/discountPackage/${pkg.discountPackageId}`);
    expect(saved.data).toEqual(read.data);
    expect(read.data[0]).toEqual({ ...pkg, name: `${pkg.name} renamed`, description: null });
    expect(await lastEntry('discount-package', pkg.discountPackageId)).toEqual({
      action: 'discount-package-updated',
      before: { name: pkg.name, description: pkg.description },
      after: { name: `${pkg.name} renamed`, description: null },
      label: `${pkg.name} renamed`,
    });
  });

  it('answers 404 for a package that does not exist', async () => {
    const answer = await call('PUT', '/api/discountPackage/987654', { name: 'Nobody', description: null });
    expect(answer).toMatchObject({ status: 404, message: 'Discount package 987654 was not found' });
  });
});

// Creations, removals and links are one statement each too (decision 039): their answers, their audit entries and
// their errors are as they were when the state was read before and after the write.
describe('a membership created and removed', () => {
  const fields = () => ({
    name: `Made ${Math.random().toString(36).slice(2, 8)}`,
    description: 'Made and removed',
    productId: products[0]!.productId,
    discountPackageId: packages[0]!.discountPackageId,
    numberOfFreeEligibleItems: 2,
    membershipLengthInMonths: 6,
  });

  it('records a new membership whole and answers it as a read does; its removal records it as it was', async () => {
    const made = await call<Membership>('POST', '/api/membership', fields());
    expect([made.status, made.message]).toEqual([201, 'Membership created']);
    const id = made.data[0]!.membershipId;
    expect(made.data).toEqual((await call<Membership>('GET', `/api/membership/${id}`)).data);
    const whole = { ...membershipFieldsOf(made.data[0]!), promotionalProducts: {} };
    expect(await lastEntry('membership', id)).toEqual({
      action: 'membership-created',
      before: null,
      after: whole,
      label: whole.name,
    });

    const link = { membershipId: id, productId: products[1]!.productId };
    expect((await call('POST', '/api/promotionalProduct', link)).status).toBe(201);
    const removed = await call('DELETE', `/api/membership/${id}`);
    expect([removed.status, removed.message]).toEqual([200, 'Membership deleted']);
    expect((await call('GET', `/api/membership/${id}`)).status).toBe(404);
    expect(await lastEntry('membership', id)).toEqual({
      action: 'membership-deleted',
      before: { ...whole, promotionalProducts: { [link.productId]: true } },
      after: null,
      label: whole.name,
    });
    expect(await call('DELETE', `/api/membership/${id}`)).toMatchObject({
      status: 404,
      message: `Membership ${id} was not found`,
    });
  });

  it('makes nothing when its product or package does not exist, naming the product first', async () => {
    const count = async () => Number((await ctx.pool.query('select count(*) as n from memberships')).rows[0].n);
    const entries = async () => Number((await ctx.pool.query('select count(*) as n from audit_entries')).rows[0].n);
    const [memberships, trail] = [await count(), await entries()];
    for (const [change, message] of [
      [{ productId: 424242 }, 'Product 424242 does not exist'],
      [{ discountPackageId: 4242 }, 'Discount package 4242 does not exist'],
      [{ productId: 424242, discountPackageId: 4242 }, 'Product 424242 does not exist'],
    ] as const) {
      expect(await call('POST', '/api/membership', { ...fields(), ...change })).toMatchObject({ status: 400, message });
    }
    expect([await count(), await entries()]).toEqual([memberships, trail]);
  });
});

describe('a discount package created, and a product put into it and taken out', () => {
  it('answers each as a read does, and records what changed', async () => {
    const made = await call<DiscountPackage>('POST', '/api/discountPackage', { name: 'Made whole', description: null });
    expect([made.status, made.message]).toEqual([201, 'Discount package created']);
    const id = made.data[0]!.discountPackageId;
    const read = async () => (await call<DiscountPackage>('GET', `/api/discountPackage/${id}`)).data;
    expect(made.data).toEqual(await read());
    expect(made.data[0]).toMatchObject({ name: 'Made whole', description: null, products: [] });
    expect(await lastEntry('discount-package', id)).toEqual({
      action: 'discount-package-created',
      before: null,
      after: { name: 'Made whole', description: null, products: {} },
      label: 'Made whole',
    });

    const key = { discountPackageId: id, productId: products[0]!.productId };
    const added = await call<DiscountPackage>('POST', '/api/discountPackageProduct', { ...key, price: 10.5 });
    expect([added.status, added.message]).toEqual([201, 'Product added to the package']);
    expect(added.data).toEqual(await read());
    expect(added.data[0]!.products).toEqual([expect.objectContaining({ productId: key.productId, price: 10.5 })]);
    expect(await lastEntry('discount-package', id)).toEqual({
      action: 'package-product-added',
      before: { products: { [key.productId]: null } },
      after: { products: { [key.productId]: { price: 10.5 } } },
      label: 'Made whole',
    });

    const taken = await call<DiscountPackage>('DELETE', '/api/discountPackageProduct', key);
    expect([taken.status, taken.message]).toEqual([200, 'Product removed from the package']);
    expect(taken.data).toEqual(await read());
    expect(taken.data[0]!.products).toEqual([]);
    expect(await lastEntry('discount-package', id)).toEqual({
      action: 'package-product-removed',
      before: { products: { [key.productId]: { price: 10.5 } } },
      after: { products: { [key.productId]: null } },
      label: 'Made whole',
    });
  });

  it('refuses a package or product that does not exist, or a product already in or not in it, changing nothing', async () => {
    const pkg = packages[0]!;
    const inIt = pkg.products[0]!.productId;
    const notInIt = products.find((p) => !pkg.products.some((q) => q.productId === p.productId))!.productId;
    const state = async () =>
      (await call<DiscountPackage>('GET', `/api/discountPackage/${pkg.discountPackageId}`)).data;
    const before = await state();
    const entry = await lastEntry('discount-package', pkg.discountPackageId);
    for (const [method, body, status, message] of [
      ['POST', { discountPackageId: 987654, productId: inIt }, 404, 'Discount package 987654 was not found'],
      ['POST', { discountPackageId: pkg.discountPackageId, productId: 424242 }, 404, 'Product 424242 was not found'],
      [
        'POST',
        { discountPackageId: pkg.discountPackageId, productId: inIt },
        409,
        `Product ${inIt} is already in this discount package`,
      ],
      [
        'DELETE',
        { discountPackageId: pkg.discountPackageId, productId: notInIt },
        404,
        `Product ${notInIt} in discount package ${pkg.discountPackageId} was not found`,
      ],
    ] as const) {
      expect(await call(method, '/api/discountPackageProduct', body)).toMatchObject({ status, message });
    }
    expect(await state()).toEqual(before);
    expect(await lastEntry('discount-package', pkg.discountPackageId)).toEqual(entry);
  });
});

describe('promotional products made and removed', () => {
  it('records the link made and removed, and nothing for a link that is there already', async () => {
    const membership = (await call<Membership>('GET', '/api/membership')).data[0]!;
    const id = membership.membershipId;
    const productId = products.find(
      (p) => !membership.promotionalProducts.some((q) => q.productId === p.productId),
    )!.productId;
    const link = { membershipId: id, productId };
    const made = await call('POST', '/api/promotionalProduct', link);
    expect([made.status, made.message, made.data]).toEqual([201, 'Promotional product added', [link]]);
    const entry = await lastEntry('membership', id);
    expect(entry).toEqual({
      action: 'promotional-products-added',
      before: { promotionalProducts: { [productId]: null } },
      after: { promotionalProducts: { [productId]: true } },
      label: membership.name,
    });
    expect((await call('POST', '/api/promotionalProduct', link)).status).toBe(201);
    expect(await lastEntry('membership', id)).toEqual(entry);

    const removed = await call('DELETE', '/api/promotionalProduct', link);
    expect([removed.status, removed.message]).toEqual([200, 'Promotional product removed']);
    expect(await lastEntry('membership', id)).toEqual({
      action: 'promotional-product-removed',
      before: { promotionalProducts: { [productId]: true } },
      after: { promotionalProducts: { [productId]: null } },
      label: membership.name,
    });
    expect((await call<Membership>('GET', `/api/membership/${id}`)).data[0]!.promotionalProducts).toEqual(
      membership.promotionalProducts,
    );
    expect(await call('DELETE', '/api/promotionalProduct', link)).toMatchObject({
      status: 404,
      message: `Promotional product ${productId} of membership ${id} was not found`,
    });
  });

  it('answers a membership or products that do not exist, the membership first, and links none', async () => {
    const membership = (await call<Membership>('GET', '/api/membership')).data[0]!;
    const entry = await lastEntry('membership', membership.membershipId);
    for (const [body, status, message] of [
      [[{ membershipId: 987654, productId: 424242 }], 404, 'Membership 987654 was not found'],
      [
        [
          { membershipId: membership.membershipId, productId: products[0]!.productId },
          { membershipId: membership.membershipId, productId: 424243 },
          { membershipId: membership.membershipId, productId: 424242 },
        ],
        400,
        'Unknown product ids: 424243, 424242',
      ],
    ] as const) {
      expect(await call('POST', '/api/promotionalProduct/batch', body)).toMatchObject({ status, message });
    }
    expect((await call<Membership>('GET', `/api/membership/${membership.membershipId}`)).data).toEqual([membership]);
    expect(await lastEntry('membership', membership.membershipId)).toEqual(entry);
  });
});

describe('promotional products of several memberships at once', () => {
  it('links all with one audit entry for each membership, or none when one membership does not exist', async () => {
    const [first, second] = (await call<Membership>('GET', '/api/membership')).data;
    const productId = products.find(
      (p) => ![first!, second!].some((m) => m.promotionalProducts.some((q) => q.productId === p.productId)),
    )!.productId;
    const links = [first!, second!].map((m) => ({ membershipId: m.membershipId, productId }));
    const refused = await call('POST', '/api/promotionalProduct/batch', [
      ...links,
      { membershipId: 987654, productId },
      { membershipId: 987655, productId },
    ]);
    expect(refused).toMatchObject({ status: 404, message: 'Membership 987654, 987655 was not found' });
    expect((await call<Membership>('GET', `/api/membership/${first!.membershipId}`)).data).toEqual([first]);

    const made = await call('POST', '/api/promotionalProduct/batch', links);
    expect([made.status, made.message]).toEqual([201, 'Promotional products added']);
    for (const m of [first!, second!]) {
      expect(await lastEntry('membership', m.membershipId)).toEqual({
        action: 'promotional-products-added',
        before: { promotionalProducts: { [productId]: null } },
        after: { promotionalProducts: { [productId]: true } },
        label: m.name,
      });
    }
  });
});

describe('a discount package removed', () => {
  it('is refused while memberships use it, naming them by name; then records it whole as it was', async () => {
    const made = await call<DiscountPackage>('POST', '/api/discountPackage', { name: 'Used twice', description: 'x' });
    const id = made.data[0]!.discountPackageId;
    const productId = products[0]!.productId;
    expect(
      (await call('POST', '/api/discountPackageProduct', { discountPackageId: id, productId, price: 3 })).status,
    ).toBe(201);
    const users = [];
    for (const name of ['Zeta user', 'Alpha user']) {
      const member = await call<Membership>('POST', '/api/membership', {
        name,
        description: null,
        productId,
        discountPackageId: id,
        numberOfFreeEligibleItems: 1,
        membershipLengthInMonths: 12,
      });
      users.push(member.data[0]!.membershipId);
    }
    const entry = await lastEntry('discount-package', id);
    expect(await call('DELETE', `/api/discountPackage/${id}`)).toMatchObject({
      status: 409,
      message:
        'This discount package is used by the memberships "Alpha user", "Zeta user". Choose another package for them first.',
    });
    expect((await call('GET', `/api/discountPackage/${id}`)).status).toBe(200);
    expect(await lastEntry('discount-package', id)).toEqual(entry);

    for (const user of users) expect((await call('DELETE', `/api/membership/${user}`)).status).toBe(200);
    const removed = await call('DELETE', `/api/discountPackage/${id}`);
    expect([removed.status, removed.message]).toEqual([200, 'Discount package deleted']);
    expect((await call('GET', `/api/discountPackage/${id}`)).status).toBe(404);
    expect(await lastEntry('discount-package', id)).toEqual({
      action: 'discount-package-deleted',
      before: { name: 'Used twice', description: 'x', products: { [productId]: { price: 3 } } },
      after: null,
      label: 'Used twice',
    });
    expect(await call('DELETE', `/api/discountPackage/${id}`)).toMatchObject({
      status: 404,
      message: `Discount package ${id} was not found`,
    });
  });
  // A removal takes only the package's stripe (decision 045): a membership's write, under its own stripe, can take
  // the package up while the removal runs. The foreign key decides; each side is held open here until the other one
  // is seen waiting for it, so the race goes the same way every time.
  describe('racing a membership that takes the package up', () => {
    const productId = () => products[0]!.productId;
    /**
     * A package and a membership out of stripe 0: the transaction held open below names no stripe, so its triggers
     * move stripe 0's rows, and a request in that stripe would wait for those rather than for the race's row.
     */
    async function racer() {
      let id = 0;
      while (entityStripe(id) === 0) {
        const made = await call<DiscountPackage>('POST', '/api/discountPackage', { name: 'Raced', description: null });
        id = made.data[0]!.discountPackageId;
      }
      let membership: Membership | undefined;
      while (!membership || entityStripe(membership.membershipId) === 0) {
        const made = await call<Membership>('POST', '/api/membership', {
          name: 'Racing user',
          description: null,
          productId: productId(),
          discountPackageId: null,
          numberOfFreeEligibleItems: 1,
          membershipLengthInMonths: 12,
        });
        membership = made.data[0]!;
      }
      return { id, membership };
    }
    /**
     * Runs `statements` in a transaction of its own, sends `request`, and commits only once the request is seen
     * waiting for that transaction; answers the request's answer.
     */
    async function heldOpenFor(statements: string[], request: () => Promise<{ status: number }>) {
      const held = await ctx.pool.connect();
      let open = false;
      let answer: Promise<{ status: number }> | undefined;
      try {
        await held.query('begin');
        open = true;
        const { rows } = await held.query<{ pid: number }>('select pg_backend_pid() as pid');
        for (const statement of statements) await held.query(statement);
        answer = request();
        const blocked = async () =>
          (
            await ctx.pool.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity
               where datname = current_database() and $1 = any(pg_blocking_pids(pid))`,
              [rows[0]!.pid],
            )
          ).rows[0]!.n;
        expect(await waitFor(blocked, (n) => n > 0, 10_000)).toBe(1);
        await held.query('commit');
        open = false;
        return await answer;
      } finally {
        if (open) await held.query('rollback').catch(() => undefined);
        held.release();
        // A request left waiting by a failed check goes on once the transaction is rolled back: it ends here.
        await answer?.catch(() => undefined);
      }
    }

    it('a membership that took it up first, not yet committed: the removal is refused, naming it', async () => {
      const { id, membership } = await racer();
      const removal = await heldOpenFor(
        [`update memberships set discount_package_id = ${id} where membership_id = ${membership.membershipId}`],
        () => call('DELETE', `/api/discountPackage/${id}`),
      );
      expect(removal).toMatchObject({
        status: 409,
        message: 'This discount package is used by the membership "Racing user". Choose another package for it first.',
      });
      expect((await call('GET', `/api/discountPackage/${id}`)).status).toBe(200);
    });

    it('a removal that went first, not yet committed: the membership is refused for a package that does not exist', async () => {
      const { id, membership } = await racer();
      const save = await heldOpenFor([`delete from discount_packages where discount_package_id = ${id}`], () =>
        call('PUT', `/api/membership/${membership.membershipId}`, {
          ...membershipFieldsOf(membership),
          discountPackageId: id,
        }),
      );
      expect(save).toMatchObject({ status: 400, message: `Discount package ${id} does not exist` });
      expect((await call<Membership>('GET', `/api/membership/${membership.membershipId}`)).data[0]).toMatchObject({
        discountPackageId: null,
      });
    });
  });
});
