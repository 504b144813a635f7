import { randomBytes } from 'node:crypto';
import { AUDIT_MESSAGES, type AuditEntry, type DiscountPackage, type Membership } from '@ums/contracts';
import { dpopHeaders, signIn } from '@ums/testkit/oidc-browser';
import { beforeAll, describe, expect, it } from 'vitest';
import { membershipFieldsOf } from '../../../test/membership-fields.js';
import { providerApp } from '../../../test/oidc-client.js';
import { entityStripe, stripeKeys } from '../../db/write-stripes.js';
import { createAccountService } from '../../identity/accounts.service.js';

const PASSWORD = 'Audit-Trail-Pass-42!';
const server = await providerApp();
const { base, database } = server;
const pool = database.pool;
const accounts = createAccountService({ db: database.db });
const run = randomBytes(3).toString('hex');

async function administrator(name: string) {
  const email = `${name}-${run}@audit.example`;
  const created = await accounts.add({ email, password: PASSWORD, admin: true, firstName: name, lastName: 'Admin' });
  return { email, id: created.accountId, token: (await signIn(base, email, PASSWORD)).access_token };
}
const avery = await administrator('avery');
const blair = await administrator('blair');

interface Answer<T> {
  status: number;
  message: string;
  data: T[];
  page?: { nextCursor: string | null; total: number };
}
async function call<T>(method: string, path: string, body?: unknown, token = avery.token): Promise<Answer<T>> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...dpopHeaders(token, method, `${base}${path}`),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const envelope = (await response.json()) as Omit<Answer<T>, 'status'>;
  return { status: response.status, ...envelope };
}
const trail = async (query: string) => (await call<AuditEntry>('GET', `/api/admin/audit?${query}`)).data;
const historyOf = (entity: string, id: number | string) => trail(`entity=${entity}&entityId=${id}&limit=100`);

let products: { productId: number; name: string }[] = [];
beforeAll(async () => {
  expect((await call('GET', '/api/product/refresh')).status).toBe(200);
  products = (
    await pool.query<{ productId: number; name: string }>(
      `select product_id as "productId", name from products order by product_id limit 6`,
    )
  ).rows;
});

async function newPackage(name = `Package ${randomBytes(2).toString('hex')}`) {
  const created = await call<DiscountPackage>('POST', '/api/discountPackage', { name, description: 'For the trail' });
  const id = created.data[0]!.discountPackageId;
  await call('POST', '/api/discountPackageProduct', {
    discountPackageId: id,
    productId: products[0]!.productId,
    price: 10,
  });
  await call('POST', '/api/discountPackageProduct', {
    discountPackageId: id,
    productId: products[1]!.productId,
    price: 20,
  });
  return id;
}
const setPrice = (discountPackageId: number, productId: number, price: number | null, token = avery.token) =>
  call<DiscountPackage>('PUT', '/api/discountPackageProduct', { discountPackageId, productId, price }, token);
const priceOf = async (discountPackageId: number, productId: number) =>
  (
    await pool.query<{ price: string | null }>(
      'select price from discount_package_products where discount_package_id = $1 and product_id = $2',
      [discountPackageId, productId],
    )
  ).rows[0]?.price;

async function newMembership(name = `Membership ${randomBytes(2).toString('hex')}`) {
  const created = await call<Membership>('POST', '/api/membership', {
    name,
    description: 'Audited',
    productId: products[0]!.productId,
    discountPackageId: null,
    numberOfFreeEligibleItems: 1,
    membershipLengthInMonths: 12,
  });
  expect(created.status).toBe(201);
  return created.data[0]!;
}

describe('the audit trail records every administrator write', () => {
  it('records a membership created, edited, given promotional products and deleted, with who, what and the change', async () => {
    const membership = await newMembership('Trail Gold');
    const id = membership.membershipId;
    await call('PUT', `/api/membership/${id}`, { ...membershipFieldsOf(membership), name: 'Trail Platinum' });
    await call('POST', '/api/promotionalProduct/batch', [
      { membershipId: id, productId: products[2]!.productId },
      { membershipId: id, productId: products[3]!.productId },
    ]);
    await call('DELETE', '/api/promotionalProduct', { membershipId: id, productId: products[2]!.productId });
    await call('DELETE', `/api/membership/${id}`, undefined, blair.token);

    const entries = await historyOf('membership', id);
    expect(entries.map((e) => e.action)).toEqual([
      'membership-deleted',
      'promotional-product-removed',
      'promotional-products-added',
      'membership-updated',
      'membership-created',
    ]);
    const [deleted, removed, added, edited, created] = entries;
    expect(created).toMatchObject({
      actor: { id: avery.id, email: avery.email },
      entity: 'membership',
      entityId: String(id),
      label: 'Trail Gold',
      before: null,
      after: { name: 'Trail Gold', productId: products[0]!.productId, promotionalProducts: {} },
      revertible: true,
    });
    expect(edited).toMatchObject({ before: { name: 'Trail Gold' }, after: { name: 'Trail Platinum' } });
    expect(Object.keys(edited!.after!)).toEqual(['name']);
    const [p2, p3] = [String(products[2]!.productId), String(products[3]!.productId)];
    expect(added).toMatchObject({
      before: { promotionalProducts: { [p2]: null, [p3]: null } },
      after: { promotionalProducts: { [p2]: true, [p3]: true } },
      labels: { [`product:${p2}`]: products[2]!.name, [`product:${p3}`]: products[3]!.name },
    });
    expect(removed).toMatchObject({
      before: { promotionalProducts: { [p2]: true } },
      after: { promotionalProducts: { [p2]: null } },
    });
    expect(deleted).toMatchObject({
      actor: { id: blair.id, email: blair.email },
      label: 'Trail Platinum',
      before: { name: 'Trail Platinum', promotionalProducts: { [p3]: true } },
      after: null,
    });
    expect(new Date(deleted!.at).getTime()).toBeGreaterThanOrEqual(new Date(created!.at).getTime());
  });

  it('records discount packages, their products and prices, the catalog refresh and member groups', async () => {
    const id = await newPackage('Trail Silver');
    await setPrice(id, products[0]!.productId, 8);
    await call('DELETE', '/api/discountPackageProduct', { discountPackageId: id, productId: products[1]!.productId });
    const p0 = String(products[0]!.productId);
    const entries = await historyOf('discount-package', id);
    expect(entries.map((e) => e.action)).toEqual([
      'package-product-removed',
      'package-price-changed',
      'package-product-added',
      'package-product-added',
      'discount-package-created',
    ]);
    expect(entries[1]).toMatchObject({
      label: 'Trail Silver',
      before: { products: { [p0]: { price: 10 } } },
      after: { products: { [p0]: { price: 8 } } },
      labels: { [`product:${p0}`]: products[0]!.name },
    });

    const refresh = (await trail('entity=catalog&limit=5'))[0]!;
    expect(refresh).toMatchObject({ action: 'catalog-refreshed', entityId: 'products', revertible: false });
    expect(refresh.after).toMatchObject({ added: expect.any(Number), updated: expect.any(Number), removed: 0 });

    const member = await accounts.add({ email: `grouped-${run}@audit.example`, password: PASSWORD });
    await call('PUT', `/api/admin/members/${member.accountId}/groups`, { groups: ['Admin'] });
    expect((await historyOf('member', member.accountId))[0]).toMatchObject({
      action: 'member-groups-changed',
      label: `grouped-${run}@audit.example`,
      before: { groups: [] },
      after: { groups: ['Admin'] },
    });
  });

  it("folds one administrator's saves of one package price within a minute into one entry, but not another's or another product's", async () => {
    const id = await newPackage();
    const [a, b] = [products[0]!.productId, products[1]!.productId];
    for (const price of [11, 12, 13.5]) expect((await setPrice(id, a, price)).status).toBe(200);
    await setPrice(id, b, 21);
    await setPrice(id, a, 14, blair.token);
    const prices = (await historyOf('discount-package', id)).filter((e) => e.action === 'package-price-changed');
    expect(prices.map((e) => [e.actor.email, e.before, e.after])).toEqual([
      [blair.email, { products: { [a]: { price: 13.5 } } }, { products: { [a]: { price: 14 } } }],
      [avery.email, { products: { [b]: { price: 20 } } }, { products: { [b]: { price: 21 } } }],
      [avery.email, { products: { [a]: { price: 10 } } }, { products: { [a]: { price: 13.5 } } }],
    ]);
  });

  it('counts a price save that appends, and moves only the trail’s version, once, for one that folds', async () => {
    const id = await newPackage();
    const a = products[0]!.productId;
    // The package's entries, and the count and version of its stripe (decision 040): what its saves move.
    const stripe = entityStripe(id);
    const trail = async () =>
      (
        await pool.query<{ entries: string; counted: string; version: string }>(
          `select (select count(*) from audit_entries where entity = 'discount-package' and entity_id = $1) as entries,
                  (select n from list_counts where key = $2) as counted,
                  (select version from data_versions where key = $3) as version`,
          [String(id), stripeKeys('audit_entries')[stripe], stripeKeys('audit')[stripe]],
        )
      ).rows[0]!;
    const moved = async (save: () => Promise<unknown>) => {
      const before = await trail();
      await save();
      const after = await trail();
      return (['entries', 'counted', 'version'] as const).map((key) => Number(after[key]) - Number(before[key]));
    };
    // Appended: one entry, counted. The version moved twice: by the fold's update, which found no entry to change,
    // and by the insert.
    expect(await moved(() => setPrice(id, a, 31))).toEqual([1, 1, 2]);
    // Folded (migration 0029): no entry added or counted; the version moved by the fold's update alone.
    expect(await moved(() => setPrice(id, a, 32))).toEqual([0, 0, 1]);
  });

  it('refuses to change or remove an entry in the database, except folding a price save into its own entry, whose time, entity and action stay', async () => {
    const [entry] = await trail('limit=1');
    await expect(pool.query(`update audit_entries set action = 'tampered' where id = $1`, [entry!.id])).rejects.toThrow(
      'audit entries are never changed or removed',
    );
    await expect(pool.query('delete from audit_entries where id = $1', [entry!.id])).rejects.toThrow(
      'audit entries are never changed or removed',
    );
    const id = await newPackage();
    await setPrice(id, products[0]!.productId, 9);
    const [price] = await historyOf('discount-package', id);
    await expect(
      pool.query(`update audit_entries set actor_email = 'someone@else.example' where id = $1`, [price!.id]),
    ).rejects.toThrow('audit entries are never changed or removed');
    // Nor its time, entity or action: what its metric slot is counted by (migration 0027 relies on it).
    // Nor may a closed account's scrub (its label cleared) change them.
    const gone = await pool.query<{ id: string }>(
      `insert into audit_entries (actor_id, action, entity, entity_id, label)
       values ('a', 'member-groups-changed', 'member', 'gone-account', 'gone@example.com') returning id`,
    );
    for (const [id, change] of [
      [price!.id, `at = at - interval '1 day'`],
      [price!.id, `entity = 'membership'`],
      [price!.id, `action = 'membership-updated'`],
      [gone.rows[0]!.id, `label = null, at = at - interval '1 day'`],
      [gone.rows[0]!.id, `label = null, action = 'membership-updated'`],
    ]) {
      await expect(pool.query(`update audit_entries set ${change} where id = $1`, [id])).rejects.toThrow(
        'audit entries are never changed or removed',
      );
    }
    await pool.query(`update audit_entries set label = null where id = $1`, [gone.rows[0]!.id]);
  });

  it('leaves no entry when the write fails, and no write when the entry cannot be written', async () => {
    const membership = await newMembership();
    const before = (await historyOf('membership', membership.membershipId)).length;
    const refused = await call('PUT', `/api/membership/${membership.membershipId}`, {
      ...membershipFieldsOf(membership),
      productId: 987654,
    });
    expect(refused.status).toBe(400);
    expect(await historyOf('membership', membership.membershipId)).toHaveLength(before);

    // The audit insert fails (a trigger refuses this name): the membership must stay as it was.
    await pool.query(`
      create function refuse_marked() returns trigger language plpgsql as $$
      begin if new.label = 'Refused by the trail' then raise exception 'no entry'; end if; return new; end $$;
      create trigger refuse_marked before insert on audit_entries for each row execute function refuse_marked();`);
    try {
      const failed = await call('PUT', `/api/membership/${membership.membershipId}`, {
        ...membershipFieldsOf(membership),
        name: 'Refused by the trail',
      });
      expect(failed.status).toBe(500);
    } finally {
      await pool.query('drop trigger refuse_marked on audit_entries; drop function refuse_marked();');
    }
    const { rows } = await pool.query('select name from memberships where membership_id = $1', [
      membership.membershipId,
    ]);
    expect(rows[0]).toEqual({ name: membership.name });
  });
});

describe('GET /api/admin/audit', () => {
  it('pages the whole trail newest first, each entry once, while entries are added between pages', async () => {
    const id = await newPackage();
    const ids: number[] = [];
    let cursor: string | null = null;
    let writes = 0;
    do {
      const page: Answer<AuditEntry> = await call<AuditEntry>(
        'GET',
        `/api/admin/audit?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      ids.push(...page.data.map((e) => e.id));
      cursor = page.page!.nextCursor;
      // Written ahead of the walk (newest first): never seen, and nothing already seen is repeated.
      if (writes++ < 3) await setPrice(id, products[1]!.productId, 30 + writes);
    } while (cursor);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    const { rows } = await pool.query<{ n: string }>('select count(*) as n from audit_entries where id <= $1', [
      ids[0],
    ]);
    expect(ids).toHaveLength(Number(rows[0]!.n));
  });

  it('filters by entity, entity id and actor, searches actor, action and name, and counts the filtered list', async () => {
    const membership = await newMembership(`Findable ${run}`);
    await call('DELETE', `/api/membership/${membership.membershipId}`, undefined, blair.token);
    const byBlair = await call<AuditEntry>('GET', `/api/admin/audit?actor=${blair.id}&limit=100`);
    expect(byBlair.data.length).toBeGreaterThan(0);
    expect(byBlair.data.every((e) => e.actor.id === blair.id)).toBe(true);
    expect(byBlair.page!.total).toBe(byBlair.data.length);
    const found = await call<AuditEntry>('GET', `/api/admin/audit?q=${encodeURIComponent(`FINDABLE ${run}`)}&limit=10`);
    expect(found.data.map((e) => e.action)).toEqual(['membership-deleted', 'membership-created']);
    expect(found.page!.total).toBe(2);
    const both = await call<AuditEntry>(
      'GET',
      `/api/admin/audit?entity=membership&entityId=${membership.membershipId}&actor=${blair.id}&limit=10`,
    );
    expect(both.data.map((e) => e.action)).toEqual(['membership-deleted']);
  });

  it('finds only the entries holding the whole search when its number is in others too, and counts only them', async () => {
    const number = String(1_000_000 + Math.floor(Math.random() * 9_000_000));
    await newMembership(`Lot ${number}`);
    await newMembership(`Lot${number}`);
    const found = async (q: string) => {
      const page = await call<AuditEntry>('GET', `/api/admin/audit?q=${encodeURIComponent(q)}&limit=10`);
      return { labels: page.data.map((e) => e.label), total: page.page!.total };
    };
    expect(await found(`LOT ${number}`)).toEqual({ labels: [`Lot ${number}`], total: 1 });
    expect(await found(`lot${number}`)).toEqual({ labels: [`Lot${number}`], total: 1 });
    expect((await found(number)).total).toBe(2);
    // A run of 5 digits or more is found inside a longer one, and the whole search still decides.
    expect(await found(`lot ${number.slice(0, 6)}`)).toEqual({ labels: [`Lot ${number}`], total: 1 });
    expect((await found(`lot${number.slice(2)}`)).total).toBe(0);
    // The index finds both by their number; the whole search, "_" and "-" as typed, keeps neither.
    expect((await found(`lot_${number}`)).total).toBe(0);
    expect((await found(`lot-${number}`)).total).toBe(0);
  });

  it('answers 400 with the field for an unknown entity, an entity id alone, a bad limit or sort', async () => {
    for (const [query, field] of [
      ['entity=invoice', 'entity'],
      ['entityId=4', 'entityId'],
      ['limit=0', 'limit'],
      ['sort=actor', 'sort'],
    ] as const) {
      const response = await fetch(`${base}/api/admin/audit?${query}`, {
        headers: dpopHeaders(avery.token, 'GET', `${base}/api/admin/audit`),
      });
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty(field);
    }
  });

  it('exports the filtered trail as CSV', async () => {
    const id = await newPackage(`Exported ${run}`);
    const response = await fetch(`${base}/api/admin/audit?entity=discount-package&entityId=${id}&format=csv`, {
      headers: dpopHeaders(avery.token, 'GET', `${base}/api/admin/audit`),
    });
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe('id,at,actor,action,entity,entityId,label,before,after,reverts');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toContain(`discount-package-created,discount-package,${id},Exported ${run}`);
    // Before and after are the entries' JSON whatever their shape (a package has a name, and was shown by it alone).
    const [created] = (await historyOf('discount-package', id)).slice(-1);
    expect(created!.after).toMatchObject({ name: `Exported ${run}` });
    const quoted = (value: unknown) => `"${JSON.stringify(value).replaceAll('"', '""')}"`;
    expect(lines[3]).toContain(`,Exported ${run},,${quoted(created!.after)},`);
  });
});

describe('POST /api/admin/audit/{id}/revert', () => {
  it("puts a package price back, records the revert as the reverting administrator's entry, and marks the original", async () => {
    const id = await newPackage();
    const productId = products[0]!.productId;
    await setPrice(id, productId, 12.25);
    await setPrice(id, productId, 15);
    const [change] = await historyOf('discount-package', id);
    const reverted = await call<AuditEntry>('POST', `/api/admin/audit/${change!.id}/revert`, undefined, blair.token);
    expect(reverted.status).toBe(200);
    expect(reverted.message).toBe(AUDIT_MESSAGES.reverted);
    expect(reverted.data[0]).toMatchObject({
      action: 'revert',
      reverts: change!.id,
      actor: { id: blair.id },
      before: { products: { [productId]: { price: 15 } } },
      after: { products: { [productId]: { price: 10 } } },
    });
    expect(await priceOf(id, productId)).toBe('10.00');
    const [latest, original] = await historyOf('discount-package', id);
    expect(latest!.id).toBe(reverted.data[0]!.id);
    expect(original!.revertedBy).toBe(latest!.id);
    // A later save is a new entry: a reverted one is never folded into.
    await setPrice(id, productId, 16);
    expect((await historyOf('discount-package', id)).map((e) => e.action).slice(0, 3)).toEqual([
      'package-price-changed',
      'revert',
      'package-price-changed',
    ]);
  });

  it('answers 409 with the current state when the price was changed again since, and changes nothing', async () => {
    const id = await newPackage();
    const productId = products[0]!.productId;
    await setPrice(id, productId, 12);
    const [change] = await historyOf('discount-package', id);
    await setPrice(id, productId, 13, blair.token);
    const refused = await call<Record<string, unknown>>('POST', `/api/admin/audit/${change!.id}/revert`);
    expect(refused.status).toBe(409);
    expect(refused.message).toBe(AUDIT_MESSAGES.changedSince);
    expect(refused.data[0]).toMatchObject({ products: { [productId]: { price: 13 } } });
    expect(await priceOf(id, productId)).toBe('13.00');
  });

  it('reverts an entry once when eight administrators revert it at the same moment', async () => {
    const id = await newPackage();
    await setPrice(id, products[1]!.productId, 25);
    const [change] = await historyOf('discount-package', id);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST', `/api/admin/audit/${change!.id}/revert`, undefined, i % 2 ? blair.token : avery.token),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect((await historyOf('discount-package', id)).filter((e) => e.action === 'revert')).toHaveLength(1);
    expect(await priceOf(id, products[1]!.productId)).toBe('20.00');
  });

  it('brings a deleted membership back under its id with its promotional products, and removes a created one', async () => {
    const membership = await newMembership('Comes Back');
    const id = membership.membershipId;
    await call('POST', '/api/promotionalProduct', { membershipId: id, productId: products[4]!.productId });
    await call('DELETE', `/api/membership/${id}`);
    const [deletion] = await historyOf('membership', id);
    expect((await call('POST', `/api/admin/audit/${deletion!.id}/revert`)).status).toBe(200);
    const back = await call<Membership>('GET', `/api/membership/${id}`);
    expect(back.data[0]).toMatchObject({ name: 'Comes Back', membershipId: id });
    expect(back.data[0]!.promotionalProducts.map((p) => p.productId)).toEqual([products[4]!.productId]);

    const made = await newMembership('Goes Away');
    const [creation] = await historyOf('membership', made.membershipId);
    expect((await call('POST', `/api/admin/audit/${creation!.id}/revert`)).status).toBe(200);
    expect((await call('GET', `/api/membership/${made.membershipId}`)).status).toBe(404);
  });

  it('refuses in words to bring back a membership whose product has left the catalog since, and changes nothing', async () => {
    await pool.query(`insert into products (product_id, name, retail_price) values (990001, 'Retired Panel', 30)`);
    const membership = await newMembership('Retired Plan');
    await call('PUT', `/api/membership/${membership.membershipId}`, {
      ...membershipFieldsOf(membership),
      productId: 990001,
    });
    await call('DELETE', `/api/membership/${membership.membershipId}`);
    await pool.query('delete from products where product_id = 990001');
    const [deletion] = await historyOf('membership', membership.membershipId);
    const refused = await call('POST', `/api/admin/audit/${deletion!.id}/revert`);
    expect([refused.status, refused.message]).toEqual([409, AUDIT_MESSAGES.productsGone([990001])]);
    expect(refused.message).toBe('This cannot be reverted: product 990001 is no longer in the catalog.');
    expect((await call('GET', `/api/membership/${membership.membershipId}`)).status).toBe(404);
  });

  it("gives a member's groups back and voids their tokens, and refuses what cannot be reverted or does not exist", async () => {
    const email = `reverted-groups-${run}@audit.example`;
    const member = await accounts.add({ email, password: PASSWORD });
    const token = (await signIn(base, email, PASSWORD)).access_token;
    await call('PUT', `/api/admin/members/${member.accountId}/groups`, { groups: ['Admin'] });
    const [change] = await historyOf('member', member.accountId);
    expect((await call('POST', `/api/admin/audit/${change!.id}/revert`)).status).toBe(200);
    const { rows } = await pool.query('select groups from accounts where account_id = $1', [member.accountId]);
    expect(rows[0]).toEqual({ groups: [] });
    expect((await call('GET', '/api/userdetails/', undefined, token)).status).toBe(401);

    const [refresh] = await trail('entity=catalog&limit=1');
    const irreversible = await call('POST', `/api/admin/audit/${refresh!.id}/revert`);
    expect([irreversible.status, irreversible.message]).toEqual([409, AUDIT_MESSAGES.irreversible]);
    expect((await call('POST', '/api/admin/audit/99999999/revert')).status).toBe(404);
  });
});
