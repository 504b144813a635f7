import { LISTS, listQueryString, type ListQuery } from '@ums/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/env.js';
import { createDatabase } from '../src/db/client.js';
import { paths } from '../src/runtime.js';
import { seedDemoData } from '../src/seed/demo-data.js';
import { growData } from '../src/seed/grow-data.js';
import { ADMIN, MEMBER, OTHER_MEMBER, apiAppOn, testApp } from './helper.js';

const ctx = await testApp();

type Row = Record<string, unknown>;
interface Answer {
  isError: boolean;
  data: Row[];
  page?: { nextCursor: string | null; total: number };
  errors?: Record<string, string[]>;
}

async function get(url: string, who = ADMIN, app = ctx.app) {
  const response = await app.inject({ url, headers: await ctx.signedIn(who) });
  return { status: response.statusCode, body: response.json() as Answer };
}

/** Every page of a list, following nextCursor; `between` runs after each of the first three pages. */
async function walk(path: string, who: typeof ADMIN, query: ListQuery, between?: () => Promise<unknown>) {
  const rows: Row[] = [];
  const totals: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const { status, body } = await get(`${path}${listQueryString({ ...query, cursor })}`, who);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data.length).toBeLessThanOrEqual(query.limit!);
    rows.push(...body.data);
    totals.push(body.page!.total);
    cursor = body.page!.nextCursor ?? undefined;
    if (between && ++pages <= 3) await between();
  } while (cursor);
  return { rows, totals };
}

let membershipId = 0;
let inserted = 0;
/** Rows of every list that sort first and last by each field, written between two pages. */
async function insertEverywhere() {
  inserted++;
  const n = inserted;
  await ctx.pool.query(`insert into products (product_id, name, retail_price) values ($1, $2, 0.5), ($3, $4, 99999)`, [
    900_000 + n * 2,
    `AAA inserted ${n}`,
    900_001 + n * 2,
    `zzz inserted ${n}`,
  ]);
  await ctx.pool.query(
    `insert into memberships (name, product_id, membership_length_in_months) values ($1, 1001, 1), ($2, 1001, 120)`,
    [`AAA inserted ${n}`, `zzz inserted ${n}`],
  );
  await ctx.pool.query(`insert into discount_packages (name) values ($1), ($2)`, [
    `AAA inserted ${n}`,
    `zzz inserted ${n}`,
  ]);
  await ctx.pool.query(`insert into promotional_products (membership_id, product_id) values ($1, $2), ($1, $3)`, [
    membershipId,
    900_000 + n * 2,
    900_001 + n * 2,
  ]);
  await ctx.pool.query(
    `with o as (insert into orders (subject, total_amount, ordered_at, status)
                values ($1, 0, now() + interval '1 day', 'AAA'), ($1, 99999, now() - interval '100 years', 'zzz')
                returning order_id)
     insert into order_items (order_id, position, product_name) select order_id, 0, 'AAA inserted' from o`,
    [MEMBER.sub],
  );
  await ctx.pool.query(
    `insert into subscriptions (subject, price_per_interval, billing_interval, billing_period, created_at)
     values ($1, 0, 1, 'month', now() + interval '1 day'), ($1, 99999, 1, 'month', now() - interval '100 years')`,
    [MEMBER.sub],
  );
}

const LIST_CALLS = [
  { name: 'membership', path: () => '/api/membership', who: ADMIN, id: (r: Row) => r['membershipId'] },
  { name: 'discountPackage', path: () => '/api/discountPackage', who: ADMIN, id: (r: Row) => r['discountPackageId'] },
  { name: 'product', path: () => '/api/product', who: ADMIN, id: (r: Row) => r['productId'] },
  {
    name: 'promotionalProduct',
    path: () => '/api/promotionalProduct',
    who: ADMIN,
    id: (r: Row) => `${r['membershipId']}/${r['productId']}`,
  },
  {
    name: 'promotionalProduct',
    path: () => `/api/promotionalProduct/${membershipId}`,
    who: ADMIN,
    id: (r: Row) => `${r['membershipId']}/${r['productId']}`,
  },
  { name: 'paymentHistory', path: () => '/api/PaymentHistory', who: MEMBER, id: (r: Row) => r['orderId'] },
  { name: 'subscriptions', path: () => '/api/UserSubscriptions', who: MEMBER, id: (r: Row) => r['subscriptionId'] },
] as const;

/** When each subscription was taken out: the list does not show it, the sort uses it. */
let subscriptionCreated = new Map<number, number>();

/** The value a sort field compares for a row of its list, as the server orders it. */
function sortValue(row: Row, field: string): string | number {
  switch (field) {
    case 'createdAt':
      return subscriptionCreated.get(row['subscriptionId'] as number)!;
    case 'date':
      return Date.parse(row['date'] as string);
    case 'productNames':
      return (row['productNames'] as string[]).join(', ');
    default:
      return row[field] as string | number;
  }
}

describe('list calls: paging, search and sort', () => {
  beforeAll(async () => {
    await seedDemoData(ctx.db, paths.catalogFile, MEMBER.sub);
    await growData(ctx.pool, {
      products: 120,
      memberships: 40,
      promotionalPerMembership: 3,
      discountPackages: 30,
      productsPerPackage: 3,
      member: { subject: MEMBER.sub, orders: 90, subscriptions: 30 },
    });
    membershipId = (await get('/api/membership')).body.data[0]!['membershipId'] as number;
    // A membership with enough promotional products to page through.
    await ctx.pool.query(
      `insert into promotional_products (membership_id, product_id)
       select $1, product_id from products order by product_id limit 30 on conflict do nothing`,
      [membershipId],
    );
  });

  for (const call of LIST_CALLS) {
    it(`${call.name} (${call.path().replace(/\d+$/, ':id')}): walking every page in each sort returns every row once while rows are inserted between pages`, async () => {
      for (const field of LISTS[call.name].sorts) {
        for (const sort of [field, `-${field}`]) {
          const before = (await get(call.path(), call.who)).body.data.map(call.id);
          const { rows } = await walk(call.path(), call.who, { limit: 9, sort }, insertEverywhere);
          const created = await ctx.pool.query<{ id: number; at: Date }>(
            'select subscription_id as id, created_at as at from subscriptions',
          );
          subscriptionCreated = new Map(created.rows.map((r) => [r.id, r.at.getTime()]));
          const seen = rows.map(call.id);
          expect(new Set(seen).size, `${sort}: no row twice`).toBe(seen.length);
          for (const id of before) expect(seen, `${sort}: ${String(id)} is on a page`).toContain(id);
          // Each page continues the order of the one before.
          const values = rows.map((r) => sortValue(r, field));
          for (let i = 1; i < values.length; i++) {
            const [a, b] = sort.startsWith('-') ? [values[i]!, values[i - 1]!] : [values[i - 1]!, values[i]!];
            expect(a <= b, `${sort}: ${String(values[i - 1])} then ${String(values[i])}`).toBe(true);
          }
        }
      }
    });
  }

  it('joins the pages of the default sort into exactly the whole list, whose answer has no page', async () => {
    for (const call of LIST_CALLS) {
      const whole = (await get(call.path(), call.who)).body;
      expect(whole.page).toBeUndefined();
      const { rows, totals } = await walk(call.path(), call.who, { limit: 25 });
      expect(rows, call.path()).toEqual(whole.data);
      expect(totals.every((t) => t === whole.data.length)).toBe(true);
    }
  });

  it('searches case-insensitively, counts the filtered list in total, and treats % and _ as text', async () => {
    const all = (await get('/api/product')).body.data;
    const page = (await get('/api/product?limit=5&q=PANEL%201')).body;
    const matching = all.filter((p) => (p['name'] as string).toLowerCase().includes('panel 1'));
    expect(page.page!.total).toBe(matching.length);
    expect(page.data.map((p) => p['productId'])).toEqual(matching.slice(0, 5).map((p) => p['productId']));
    // Every page of a search reports the same total, and the pages join into the filtered list.
    const searched = await walk('/api/product', ADMIN, { limit: 7, q: 'PANEL 1' });
    expect(searched.totals.every((t) => t === matching.length)).toBe(true);
    expect(searched.rows.map((p) => p['productId'])).toEqual(matching.map((p) => p['productId']));
    expect((await get('/api/product?limit=5&q=%25')).body.page!.total).toBe(0);
    expect((await get('/api/product?limit=5&q=Panel_1')).body.page!.total).toBe(0);

    // Memberships match on their description too.
    const byDescription = (await get('/api/membership?limit=100&q=generated%20MEMBERSHIP%2037')).body.data;
    expect(byDescription.map((m) => m['name'])).toEqual(['Membership 37']);

    // Links match on the membership or the product name.
    const links = (await get('/api/promotionalProduct?limit=100&q=membership%2037')).body;
    expect(links.data.length).toBe(3);
    expect(links.data.every((l) => l['membershipName'] === 'Membership 37')).toBe(true);

    // Orders: by order number ("#12" or "12") and by product name.
    const orders = (await get('/api/PaymentHistory', MEMBER)).body.data;
    const order = orders[3]!;
    for (const q of [`#${String(order['orderId'])}`, String(order['orderId'])]) {
      const found = (await get(`/api/PaymentHistory?limit=25&q=${encodeURIComponent(q)}`, MEMBER)).body.data;
      expect(found.map((o) => o['orderId'])).toContain(order['orderId']);
    }
    // By the words of the product names, each typed word the start of one: "lipid pan" finds "Lipid Panel".
    const words = (text: string) =>
      text
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean);
    const product = (order['productNames'] as string[])[0]!;
    const typed = words(product)
      .map((w) => w.slice(0, Math.max(1, w.length - 1)))
      .join(' ')
      .toUpperCase();
    const byProduct = (await get(`/api/PaymentHistory?limit=100&q=${encodeURIComponent(typed)}`, MEMBER)).body;
    const expected = orders.filter((o) => {
      const names = words((o['productNames'] as string[]).join(', '));
      return words(typed).every((w) => names.some((name) => name.startsWith(w)));
    });
    expect(expected.map((o) => o['orderId'])).toContain(order['orderId']);
    expect(byProduct.page!.total).toBe(expected.length);
    expect(byProduct.data.map((o) => o['orderId'])).toEqual(expected.map((o) => o['orderId']).slice(0, 100));
    // Letters inside a word are not a word's start.
    const inside = words(product).find((w) => w.length > 3)!;
    const middle = (await get(`/api/PaymentHistory?limit=5&q=${inside.slice(1)}`, MEMBER)).body.data;
    expect(middle.filter((o) => (o['productNames'] as string[]).join(' ').toLowerCase().includes(inside))).toEqual([]);

    // Subscriptions: by product name.
    const subscriptions = (await get('/api/UserSubscriptions?limit=100&q=zzz', MEMBER)).body;
    expect(subscriptions.page!.total).toBe(0);
  });

  it('answers 400 naming the field for a bad limit, sort, cursor or search, and changes nothing', async () => {
    const cursor = (await get('/api/product?limit=2')).body.page!.nextCursor!;
    const cases: [string, string, string][] = [
      ['/api/product?limit=0', 'limit', 'Must be a whole number from 1 to 100'],
      ['/api/product?limit=101', 'limit', 'Must be a whole number from 1 to 100'],
      ['/api/product?limit=ten', 'limit', 'Must be a whole number from 1 to 100'],
      ['/api/product?limit=5&limit=6', 'limit', 'Must be a whole number from 1 to 100'],
      [
        '/api/product?sort=price',
        'sort',
        'Must be one of: name, productId, retailPrice, -name, -productId, -retailPrice',
      ],
      [
        '/api/PaymentHistory?sort=name',
        'sort',
        'Must be one of: date, orderId, totalAmount, status, productNames, -date, -orderId, -totalAmount, -status, -productNames',
      ],
      [
        '/api/product?limit=2&cursor=not-a-cursor',
        'cursor',
        'Must be the nextCursor of a previous page with the same sort',
      ],
      [
        `/api/product?limit=2&sort=-name&cursor=${cursor}`,
        'cursor',
        'Must be the nextCursor of a previous page with the same sort',
      ],
      [
        `/api/membership?limit=2&cursor=${cursor}`,
        'cursor',
        'Must be the nextCursor of a previous page with the same sort',
      ],
      [`/api/product?cursor=${cursor}`, 'cursor', 'Needs limit'],
      [`/api/product?limit=2&q=${'x'.repeat(101)}`, 'q', 'Search must be at most 100 characters'],
    ];
    const before = (await get('/api/product')).body.data.length;
    for (const [url, field, message] of cases) {
      const { status, body } = await get(url, url.includes('PaymentHistory') ? MEMBER : ADMIN);
      expect(status, url).toBe(400);
      expect(body.isError).toBe(true);
      expect(body.errors?.[field], url).toContain(message);
    }
    // A cursor whose values were tampered with is refused, not passed to the database.
    const forged = Buffer.from(JSON.stringify(['name', "x'; drop table products; --", 'one'])).toString('base64url');
    expect((await get(`/api/product?limit=2&cursor=${forged}`)).status).toBe(400);
    expect((await get('/api/product')).body.data.length).toBe(before);
  });

  it('keeps total exact when 40 links are added and 10 removed at once', async () => {
    const products = (
      await ctx.pool.query<{ id: number }>(`select product_id as id from products order by product_id desc limit 40`)
    ).rows;
    const target = (await get('/api/membership?limit=1&sort=-membershipId')).body.data[0]!['membershipId'];
    const headers = { ...(await ctx.signedIn(ADMIN)), 'content-type': 'application/json' };
    const adds = products.map((p) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/promotionalProduct',
        headers,
        payload: { membershipId: target, productId: p.id },
      }),
    );
    const existing = (await get(`/api/promotionalProduct/${membershipId}`)).body.data.slice(0, 10);
    const removes = existing.map((l) =>
      ctx.app.inject({
        method: 'DELETE',
        url: '/api/promotionalProduct',
        headers,
        payload: { membershipId: l['membershipId'], productId: l['productId'] },
      }),
    );
    const answers = await Promise.all([...adds, ...removes]);
    expect(answers.map((a) => a.statusCode).filter((s) => s >= 300)).toEqual([]);
    const { rows } = await ctx.pool.query<{ n: string }>('select count(*) as n from promotional_products');
    expect((await get('/api/promotionalProduct?limit=1')).body.page!.total).toBe(Number(rows[0]!.n));
    const overview = (await get('/api/admin/overview')).body.data[0]!;
    expect(overview['promotionalProducts']).toBe(Number(rows[0]!.n));
  });

  it('answers the dashboard overview: the counts and the five most promoted products', async () => {
    const counts = await ctx.pool.query<Record<string, string>>(
      `select (select count(*) from memberships) as memberships, (select count(*) from discount_packages) as packages,
              (select count(*) from products) as products, (select count(*) from promotional_products) as links`,
    );
    const top = await ctx.pool.query<{ productId: number; name: string; memberships: string }>(
      `select pp.product_id as "productId", p.name, count(*) as memberships
       from promotional_products pp join products p using (product_id)
       group by pp.product_id, p.name order by count(*) desc, p.name, pp.product_id limit 5`,
    );
    const { status, body } = await get('/api/admin/overview');
    expect(status).toBe(200);
    const c = counts.rows[0]!;
    expect(body.data).toEqual([
      {
        memberships: Number(c['memberships']),
        discountPackages: Number(c['packages']),
        products: Number(c['products']),
        promotionalProducts: Number(c['links']),
        mostPromoted: top.rows.map((r) => ({ ...r, memberships: Number(r.memberships) })),
      },
    ]);
  });

  it('serves a change made through one API process from the next read on another (per-version cache)', async () => {
    const second = createDatabase(ctx.url);
    const config = loadConfig({}, { catalogFile: paths.catalogFile });
    const other = await apiAppOn(second.db, config, ctx.keys);
    try {
      await other.ready();
      const name = (r: Answer) => r.data.find((m) => m['membershipId'] === membershipId)?.['name'];
      // Both processes have the list in memory now.
      for (let i = 0; i < 2; i++) {
        await get('/api/membership', ADMIN, other);
        await get('/api/membership?limit=100&sort=membershipId', ADMIN, other);
      }
      const membership = (await get(`/api/membership/${membershipId}`)).body.data[0]!;
      const headers = { ...(await ctx.signedIn(ADMIN)), 'content-type': 'application/json' };
      const saved = await ctx.app.inject({
        method: 'PUT',
        url: `/api/membership/${membershipId}`,
        headers,
        payload: {
          name: 'Renamed on the first process',
          description: membership['description'],
          productId: membership['productId'],
          discountPackageId: membership['discountPackageId'],
          numberOfFreeEligibleItems: membership['numberOfFreeEligibleItems'],
          membershipLengthInMonths: membership['membershipLengthInMonths'],
        },
      });
      expect(saved.statusCode).toBe(200);
      expect(name((await get('/api/membership', ADMIN, other)).body)).toBe('Renamed on the first process');
      expect(name((await get('/api/membership?limit=100&sort=membershipId', ADMIN, other)).body)).toBe(
        'Renamed on the first process',
      );
    } finally {
      await other.close();
      await second.pool.end();
    }
  });

  it("serves each write to a member's orders, items, subscriptions and their products' names from the next read on another process, and never one member's answer to another (per-member cache)", async () => {
    const second = createDatabase(ctx.url);
    const config = loadConfig({}, { catalogFile: paths.catalogFile });
    const other = await apiAppOn(second.db, config, ctx.keys);
    const orders = '/api/PaymentHistory?limit=5';
    const subscriptions = '/api/UserSubscriptions';
    const read = async () => ({
      orders: (await get(orders, MEMBER, other)).body.data,
      subscriptions: (await get(subscriptions, MEMBER, other)).body.data,
    });
    try {
      await other.ready();
      // Both processes have the member's answers in memory now.
      for (let i = 0; i < 2; i++) {
        for (const app of [ctx.app, other]) {
          await get(orders, MEMBER, app);
          await get(subscriptions, MEMBER, app);
        }
      }
      const before = await read();

      const { rows } = await ctx.pool.query<{ order_id: number }>(
        `with o as (insert into orders (subject, total_amount, ordered_at, status)
                    values ($1, 12.5, now() + interval '10 years', 'Paid') returning order_id)
         insert into order_items (order_id, position, product_name) select order_id, 0, 'Newest order item' from o
         returning order_id`,
        [MEMBER.sub],
      );
      const orderId = rows[0]!.order_id;
      expect((await read()).orders[0]).toMatchObject({ orderId, productNames: ['Newest order item'] });

      await ctx.pool.query(`update order_items set product_name = 'Renamed order item' where order_id = $1`, [orderId]);
      expect((await read()).orders[0]).toMatchObject({ orderId, productNames: ['Renamed order item'] });

      const first = before.subscriptions[0]!;
      const cancelled = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/UserSubscriptions/${first['subscriptionId']}`,
        headers: await ctx.signedIn(MEMBER),
      });
      expect(cancelled.statusCode).toBe(200);
      const afterCancel = (await read()).subscriptions;
      expect(afterCancel.map((s) => s['subscriptionId'])).not.toContain(first['subscriptionId']);

      const kept = afterCancel[0]!;
      await ctx.pool.query(
        `insert into products (product_id, name, retail_price) values (990777, 'Added to a subscription', 1)`,
      );
      await ctx.pool.query(
        `insert into subscription_products (subscription_id, product_id, position) values ($1, 990777, 99)`,
        [kept['subscriptionId']],
      );
      const added = (await read()).subscriptions.find((s) => s['subscriptionId'] === kept['subscriptionId'])!;
      expect(added['products']).toContainEqual({ productName: 'Added to a subscription', imageUrl: null });

      // A subscription shows its products' names as the catalog has them now.
      await ctx.pool.query(`update products set name = 'Renamed in the catalog' where product_id = 990777`);
      const renamed = (await read()).subscriptions.find((s) => s['subscriptionId'] === kept['subscriptionId'])!;
      expect(renamed['products']).toContainEqual({ productName: 'Renamed in the catalog', imageUrl: null });

      await ctx.pool.query(`delete from orders where order_id = $1`, [orderId]);
      expect((await read()).orders.map((o) => o['orderId'])).not.toContain(orderId);
      expect((await read()).orders).toEqual(before.orders);

      // The same addresses, another member: their own (empty) lists, not the first member's kept answers.
      for (const app of [ctx.app, other]) {
        expect((await get(orders, OTHER_MEMBER, app)).body.data).toEqual([]);
        expect((await get(subscriptions, OTHER_MEMBER, app)).body.data).toEqual([]);
      }
    } finally {
      await other.close();
      await second.pool.end();
    }
  });

  it("answers an existing membership's empty promotional page, and 404 for it at once when the membership is deleted (the kept answer carries its existence check)", async () => {
    const { rows } = await ctx.pool.query<{ id: number }>(
      `insert into memberships (name, product_id, membership_length_in_months) values ('Empty promotions', 1001, 1)
       returning membership_id as id`,
    );
    const url = `/api/promotionalProduct/${rows[0]!.id}?limit=25&q=nothing matches this`;
    for (let i = 0; i < 2; i++) {
      const { status, body } = await get(url);
      expect(status).toBe(200);
      expect(body.data).toEqual([]);
    }
    await ctx.pool.query(`delete from memberships where membership_id = $1`, [rows[0]!.id]);
    expect((await get(url)).status).toBe(404);
    expect((await get(`/api/promotionalProduct/${rows[0]!.id}`)).status).toBe(404);
  });
});
