import type { DiscountPackage, Membership } from '@ums/contracts';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../src/db/client.js';
import { sqlStateOf } from '../src/db/sql-state.js';
import { entityStripe } from '../src/db/write-stripes.js';
import { lockStripes, membershipTransaction } from '../src/modules/audit/audit.js';
import { membershipRepository } from '../src/modules/memberships/memberships.repository.js';
import { createMembershipService } from '../src/modules/memberships/memberships.service.js';
import { paths } from '../src/runtime.js';
import { seedDemoData } from '../src/seed/demo-data.js';
import { adminCalls } from './admin-calls.js';
import { MEMBER, testApp } from './helper.js';
import { membershipFieldsOf } from './membership-fields.js';
import { stripeLocks } from './stripe-locks.js';
import { waitFor } from './wait-for.js';

// Writes of one package or one membership take that entity's stripe of the catalog's lock (decision 040): ten
// administrators each editing an entity of their own are not saved one after another, while two writes of the same
// entity, and writes that span the catalog, still wait for each other.

const ctx = await testApp();
await seedDemoData(ctx.db, paths.catalogFile, MEMBER.sub);
const { writeInFlight, whileHeld, besideHeld, lockWaiters } = stripeLocks(ctx);

const call = adminCalls(ctx);

const run = Math.random().toString(36).slice(2, 8);
let productIds: number[] = [];
/** Packages and memberships made one after another: 16 consecutive ids each, one in each stripe. */
const packages = new Map<number, DiscountPackage>();
const memberships = new Map<number, Membership>();
beforeAll(async () => {
  productIds = (
    await ctx.pool.query<{ id: number }>('select product_id as id from products order by product_id limit 40')
  ).rows.map((row) => row.id);
  for (let n = 0; n < 16; n++) {
    const made = await call<DiscountPackage>('POST', '/api/discountPackage', {
      name: `Striped ${run} ${n}`,
      description: 'One of 16',
    });
    expect(made.status).toBe(201);
    const pkg = made.data[0]!;
    expect(
      (
        await call('POST', '/api/discountPackageProduct', {
          discountPackageId: pkg.discountPackageId,
          productId: productIds[0],
          price: 10,
        })
      ).status,
    ).toBe(201);
    packages.set(entityStripe(pkg.discountPackageId), pkg);
    const member = await call<Membership>('POST', '/api/membership', {
      name: `Striped ${run} ${n}`,
      description: 'One of 16',
      productId: productIds[0],
      discountPackageId: null,
      numberOfFreeEligibleItems: 1,
      membershipLengthInMonths: 12,
    });
    expect(member.status).toBe(201);
    memberships.set(entityStripe(member.data[0]!.membershipId), member.data[0]!);
  }
  expect(packages.size).toBe(16);
  expect(memberships.size).toBe(16);
});

// Stripe 0 is also where writers that name no stripe go: the entities used below are in stripes 1 to 15.
const pkg = (stripe: number) => packages.get(stripe)!.discountPackageId;
const membership = (stripe: number) => memberships.get(stripe)!;
const rename = (stripe: number, name: string) =>
  call<DiscountPackage>('PUT', `/api/discountPackage/${pkg(stripe)}`, { name, description: 'Renamed' });
const saveMembership = (stripe: number, description: string) =>
  call<Membership>('PUT', `/api/membership/${membership(stripe).membershipId}`, {
    ...membershipFieldsOf(membership(stripe)),
    description,
  });
const holdPackage = (stripe: number) => () => writeInFlight(pkg(stripe));
const holdMembership = (stripe: number) => () => writeInFlight(membership(stripe).membershipId, 'memberships');

describe('writes of one discount package', () => {
  it('save a rename while a write of a package in another stripe is in flight, without waiting for it', async () => {
    expect(await besideHeld(holdPackage(1), () => rename(2, `Beside ${run}`))).toMatchObject({ status: 200 });
  });

  it('add a product and remove it while a write of another package is in flight, without waiting', async () => {
    const key = { discountPackageId: pkg(3), productId: productIds[1] };
    expect(await besideHeld(holdPackage(1), () => call('POST', '/api/discountPackageProduct', key))).toMatchObject({
      status: 201,
    });
    expect(await besideHeld(holdPackage(1), () => call('DELETE', '/api/discountPackageProduct', key))).toMatchObject({
      status: 200,
    });
  });

  it('wait for a write of the same package in flight, then save on top of it', async () => {
    const renamed = await whileHeld(holdPackage(4), () => rename(4, `After ${run}`));
    expect(renamed.status).toBe(200);
    expect((await call<DiscountPackage>('GET', `/api/discountPackage/${pkg(4)}`)).data[0]!.name).toBe(`After ${run}`);
  });
});

describe('writes of one membership', () => {
  it('save while a write of a membership in another stripe is in flight, without waiting for it', async () => {
    expect(await besideHeld(holdMembership(1), () => saveMembership(5, `Beside ${run}`))).toMatchObject({
      status: 200,
    });
  });

  it('make and remove a promotional link beside another membership’s write in flight, without waiting', async () => {
    const link = { membershipId: membership(6).membershipId, productId: productIds[2] };
    expect(await besideHeld(holdMembership(1), () => call('POST', '/api/promotionalProduct', link))).toMatchObject({
      status: 201,
    });
    expect(await besideHeld(holdMembership(1), () => call('DELETE', '/api/promotionalProduct', link))).toMatchObject({
      status: 200,
    });
  });

  it('wait for a write of the same membership in flight, then save', async () => {
    const saved = await whileHeld(holdMembership(7), () => saveMembership(7, `After ${run}`));
    expect(saved.status).toBe(200);
    expect(saved.data[0]!.description).toBe(`After ${run}`);
  });

  it('of several memberships’ links at once wait for a write of any one of them', async () => {
    const links = [8, 9].map((stripe) => ({ membershipId: membership(stripe).membershipId, productId: productIds[3] }));
    const added = await whileHeld(holdMembership(9), () => call('POST', '/api/promotionalProduct/batch', links));
    expect(added.status).toBe(201);
    for (const stripe of [8, 9]) {
      const read = await call<Membership>('GET', `/api/membership/${membership(stripe).membershipId}`);
      expect(read.data[0]!.promotionalProducts.map((p) => p.productId)).toContain(productIds[3]);
    }
  });

  it('remove another while a write of a membership in another stripe is in flight, without waiting', async () => {
    expect(
      await besideHeld(holdMembership(1), () => call('DELETE', `/api/membership/${membership(4).membershipId}`)),
    ).toMatchObject({ status: 200 });
  });

  it('remove it only once a write of the same membership in flight has committed', async () => {
    const removed = await whileHeld(holdMembership(10), () =>
      call('DELETE', `/api/membership/${membership(10).membershipId}`),
    );
    expect(removed.status).toBe(200);
    expect((await call('GET', `/api/membership/${membership(10).membershipId}`)).status).toBe(404);
  });
});

describe('a package’s removal (decision 045)', () => {
  /** A package made to be removed, in a stripe of 1 to 15 (the entities held below are in those). */
  async function toRemove(): Promise<number> {
    for (;;) {
      const made = await call<DiscountPackage>('POST', '/api/discountPackage', {
        name: `Removed ${run}`,
        description: null,
      });
      const id = made.data[0]!.discountPackageId;
      if (entityStripe(id) !== 0) return id;
    }
  }

  it('goes on beside a write of a membership in another stripe, without waiting for it', async () => {
    const id = await toRemove();
    // A stripe whose membership the tests above left in place.
    const other = [1, 2].find((stripe) => stripe !== entityStripe(id))!;
    expect(await besideHeld(holdMembership(other), () => call('DELETE', `/api/discountPackage/${id}`))).toMatchObject({
      status: 200,
    });
  });

  it('waits for a write of a package in its own stripe', async () => {
    const id = await toRemove();
    const removal = await whileHeld(holdPackage(entityStripe(id)), () => call('DELETE', `/api/discountPackage/${id}`));
    expect(removal.status).toBe(200);
    expect((await call('GET', `/api/discountPackage/${id}`)).status).toBe(404);
  });
});

describe('ten administrators each saving an entity of their own at once', () => {
  it('all land, and the kept lists and the audit trail show every one', async () => {
    const stripes = [1, 2, 3, 5, 6, 11, 12, 13, 14, 15];
    const listedNames = async () =>
      new Map(
        (await call<DiscountPackage>('GET', '/api/discountPackage')).data.map((p) => [p.discountPackageId, p.name]),
      );
    const listedDescriptions = async () =>
      new Map((await call<Membership>('GET', '/api/membership')).data.map((m) => [m.membershipId, m.description]));
    const entries = async () => (await call('GET', '/api/admin/audit?limit=1')).page!.total;
    // The answers are kept in memory under their versions now.
    await listedNames();
    await listedDescriptions();
    const before = await entries();

    const answers = await Promise.all([
      ...stripes.map((stripe) => rename(stripe, `Ten ${run} ${stripe}`)),
      ...stripes.map((stripe) => saveMembership(stripe, `Ten ${run} ${stripe}`)),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));

    const names = await listedNames();
    const descriptions = await listedDescriptions();
    expect(stripes.map((stripe) => names.get(pkg(stripe)))).toEqual(stripes.map((stripe) => `Ten ${run} ${stripe}`));
    expect(stripes.map((stripe) => descriptions.get(membership(stripe).membershipId))).toEqual(
      stripes.map((stripe) => `Ten ${run} ${stripe}`),
    );
    expect(await entries()).toBe(before + 20);
  });
});

describe('the kept counts, moved on each writer’s stripe (migration 0023)', () => {
  it('add up to the tables’ rows in the totals and the overview, written in several stripes', async () => {
    const rows = async (table: string) =>
      Number((await ctx.pool.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);
    const total = async (url: string) => (await call(`GET`, url)).page!.total;
    const stripes = Number(
      (
        await ctx.pool.query<{ n: string }>(
          `select count(*) as n from list_counts where key ~ '^(memberships|discount_packages)#' and n <> 0`,
        )
      ).rows[0]!.n,
    );
    expect(stripes).toBeGreaterThan(1);
    expect(await total('/api/membership?limit=1')).toBe(await rows('memberships'));
    expect(await total('/api/discountPackage?limit=1')).toBe(await rows('discount_packages'));
    expect(await total('/api/promotionalProduct?limit=1')).toBe(await rows('promotional_products'));
    const overview = (await call<Record<string, number>>('GET', '/api/admin/overview')).data[0]!;
    expect(overview).toMatchObject({
      memberships: await rows('memberships'),
      discountPackages: await rows('discount_packages'),
      products: await rows('products'),
      promotionalProducts: await rows('promotional_products'),
    });
  });
});

describe('a stripe lock', () => {
  it('refuses a write that names no stripe, rather than run it unlocked', async () => {
    await expect(ctx.appRole.db.transaction((tx) => lockStripes(tx, []))).rejects.toThrow(
      'No stripe of the catalog was named: the write was not made',
    );
  });
});

// Decision 051: a write's statement is sent behind its lock's, and its audit entry with COMMIT behind it, without
// waiting for their answers. Whatever fails among them fails the whole write, and nothing of it is kept.
describe('a write sent without waiting for its lock’s or its audit entry’s answer', () => {
  const stored = async (id: number) =>
    (
      await ctx.pool.query<{ description: string; entries: number }>(
        `select description, (select count(*)::int from audit_entries where entity = 'membership' and entity_id = $2) as entries
         from memberships where membership_id = $1`,
        [id, String(id)],
      )
    ).rows[0]!;

  it('is refused whole, with the entry’s own refusal, when its audit entry is refused: the fields stay as they were', async () => {
    const { membershipId } = membership(6);
    const before = await stored(membershipId);
    const memberships = createMembershipService({ db: ctx.appRole.db });
    const save = (description: string) =>
      memberships.update({ id: 'test', email: null }, membershipId, {
        ...membershipFieldsOf(membership(6)),
        description,
      });
    // The audit trail's count row of the membership's stripe gone: the entry's insert is refused (migration 0028).
    const key = `audit_entries#${entityStripe(membershipId)}`;
    const { rows } = await ctx.pool.query<{ n: string }>('delete from list_counts where key = $1 returning n', [key]);
    try {
      await expect(save(`Refused ${run}`)).rejects.toThrow(
        "The audit trail's count rows are missing (migration 0022): the write was not made",
      );
      expect((await saveMembership(6, `Refused ${run}`)).status).toBe(500);
    } finally {
      await ctx.pool.query('insert into list_counts (key, n) values ($1, $2)', [key, rows[0]!.n]);
    }
    expect(await stored(membershipId)).toEqual(before);
    expect((await saveMembership(6, `Kept ${run}`)).status).toBe(200);
    expect(await stored(membershipId)).toEqual({ description: `Kept ${run}`, entries: before.entries + 1 });
  });

  it('answers why a refused audit entry refused the write, not the refusal of the statements sent after it', async () => {
    // Links of two memberships in one transaction: the first's entry is sent without waiting, then the second's links.
    const [first, second] = [membership(8), membership(9)];
    const key = `audit_entries#${entityStripe(first.membershipId)}`;
    const { rows } = await ctx.pool.query<{ n: string }>('delete from list_counts where key = $1 returning n', [key]);
    try {
      const links = [first, second].map((m) => ({ membershipId: m.membershipId, productId: productIds[5]! }));
      await expect(
        createMembershipService({ db: ctx.appRole.db }).addPromotional({ id: 'test', email: null }, links),
      ).rejects.toThrow("The audit trail's count rows are missing (migration 0022): the write was not made");
    } finally {
      await ctx.pool.query('insert into list_counts (key, n) values ($1, $2)', [key, rows[0]!.n]);
    }
    const kept = await ctx.pool.query(
      'select 1 from promotional_products where product_id = $1 and membership_id = any($2)',
      [productIds[5], [first.membershipId, second.membershipId]],
    );
    expect(kept.rowCount).toBe(0);
  });

  it('is refused with its lock’s sentence when the stripe’s row is gone, and changes nothing', async () => {
    const { membershipId } = membership(7);
    const before = await stored(membershipId);
    const key = `catalog#${entityStripe(membershipId)}`;
    const { rows } = await ctx.pool.query<{ version: string }>(
      'delete from data_versions where key = $1 returning version',
      [key],
    );
    try {
      const write = membershipTransaction(ctx.appRole.db, membershipId, (tx) =>
        membershipRepository.saveFields(tx, membershipId, {
          ...membershipFieldsOf(membership(7)),
          description: `Unlocked ${run}`,
        }),
      );
      await expect(write).rejects.toThrow(
        "The catalog's version rows are missing (migration 0022): the write was not made",
      );
    } finally {
      await ctx.pool.query('insert into data_versions (key, version) values ($1, $2)', [key, rows[0]!.version]);
    }
    expect(await stored(membershipId)).toEqual(before);
  });

  it('is refused with the lock’s own error when PostgreSQL stops the wait for it, not the save’s sent behind it', async () => {
    const { membershipId } = membership(12);
    const before = await stored(membershipId);
    const release = await holdMembership(12)();
    try {
      const write = membershipTransaction(ctx.appRole.db, membershipId, (tx) =>
        membershipRepository.saveFields(tx, membershipId, {
          ...membershipFieldsOf(membership(12)),
          description: `Cancelled ${run}`,
        }),
      );
      const refusal = write.then(
        () => null,
        (error: unknown) => sqlStateOf(error),
      );
      const waiting = await waitFor(lockWaiters, (pids) => pids.length > 0);
      expect(waiting).toHaveLength(1);
      await ctx.pool.query('select pg_cancel_backend($1)', [waiting[0]]);
      // 57014: the statement was cancelled. The save behind it answered 25P02 (the transaction had failed).
      expect(await refusal).toBe('57014');
    } finally {
      await release();
    }
    // The held write's entry only.
    expect(await stored(membershipId)).toEqual({ description: before.description, entries: before.entries + 1 });
  });

  it('is refused, not reported as made, when a statement failed that nothing awaited', async () => {
    // PostgreSQL answers the COMMIT of a failed transaction with a ROLLBACK and no error.
    const made = ctx.appRole.db.transaction(async (tx) => {
      connectionOf(tx)
        .query('select 1 / 0')
        .catch(() => undefined);
      return 'made';
    });
    await expect(made).rejects.toThrow('A statement of the transaction failed unheard: PostgreSQL rolled it back');
  });

  it('leaves every connection it used out of pipeline mode when it goes back to the pool', async () => {
    const released: boolean[] = [];
    const heard = (_error: Error | undefined, client: pg.PoolClient) => released.push(client.pipeline);
    ctx.appRole.pool.on('release', heard);
    try {
      expect((await saveMembership(11, `Pooled ${run}`)).status).toBe(200);
      expect((await saveMembership(11, `Pooled again ${run}`)).status).toBe(200);
    } finally {
      ctx.appRole.pool.off('release', heard);
    }
    // Each save: its proof's record on the pool, and its transaction.
    expect(released.length).toBeGreaterThanOrEqual(4);
    expect(released).toEqual(released.map(() => false));
  });
});
