import type pg from 'pg';

export interface GrowthPlan {
  /** Catalog size after growing (products get ids from 100001 up). */
  products: number;
  memberships: number;
  promotionalPerMembership: number;
  discountPackages: number;
  productsPerPackage: number;
  /** Orders (2 items each) and subscriptions (2 products each) for this member. */
  member: { subject: string; orders: number; subscriptions: number };
}

/** The realistic size of issue 7: what the load benchmark and the query budget test run against. */
export const REALISTIC: Omit<GrowthPlan, 'member'> & { orders: number; subscriptions: number } = {
  products: 2000,
  memberships: 500,
  promotionalPerMembership: 20,
  discountPackages: 50,
  productsPerPackage: 40,
  orders: 1000,
  subscriptions: 20,
};

/** What issue 14's benchmark adds on top of REALISTIC: 5,000 products, 2,000 memberships x 20, 10,000 orders. */
export const LARGE_GROWTH: Omit<GrowthPlan, 'member'> & { orders: number } = {
  products: 5000,
  memberships: 1500,
  promotionalPerMembership: 20,
  discountPackages: 0,
  productsPerPackage: 0,
  orders: 9000,
};

/**
 * Adds rows in bulk with set-based SQL (seconds, not minutes), in one transaction. Names carry a running number,
 * so the data looks like a real catalog to the queries and to a person reading a list.
 */
export async function growData(pool: pg.Pool, plan: GrowthPlan): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(
      `insert into products (product_id, name, retail_price, image_url)
       select 100000 + n, 'Panel ' || n, 10 + (n % 190) + 0.99, null
       from generate_series(1, $1::int) n
       on conflict (product_id) do nothing`,
      [plan.products],
    );
    const packages = await client.query<{ id: number }>(
      `insert into discount_packages (name, description)
       select 'Package ' || n, 'Generated package ' || n from generate_series(1, $1::int) n
       returning discount_package_id as id`,
      [plan.discountPackages],
    );
    for (const { id } of packages.rows) {
      await client.query(
        `insert into discount_package_products (discount_package_id, product_id, price)
         select $1, product_id, case when product_id % 3 = 0 then null else retail_price * 0.8 end
         from products order by product_id limit $2`,
        [id, plan.productsPerPackage],
      );
    }
    await client.query(
      `with created as (
         insert into memberships (name, description, product_id, discount_package_id, number_of_free_eligible_items,
                                  membership_length_in_months)
         select 'Membership ' || n, 'Generated membership ' || n,
                (select product_id from products order by product_id offset (n % 50) limit 1),
                $2::int, n % 5, 1 + (n % 120)
         from generate_series(1, $1::int) n
         returning membership_id)
       insert into promotional_products (membership_id, product_id)
       select c.membership_id, p.product_id
       from created c
       cross join lateral (
         select product_id from products order by product_id offset (c.membership_id % 100) limit $3
       ) p`,
      [plan.memberships, packages.rows[0]?.id ?? null, plan.promotionalPerMembership],
    );
    await client.query(
      `with created as (
         insert into orders (subject, total_amount, ordered_at, status)
         select $1, 20 + (n % 300), now() - make_interval(days => n), (array['Paid','Pending','Refunded','Failed'])[1 + n % 4]
         from generate_series(1, $2::int) n
         returning order_id)
       insert into order_items (order_id, position, product_name)
       select order_id, pos, 'Panel ' || ((order_id * 7 + pos) % 2000 + 1)
       from created cross join generate_series(0, 1) pos`,
      [plan.member.subject, plan.member.orders],
    );
    await client.query(
      `with created as (
         insert into subscriptions (subject, price_per_interval, billing_interval, billing_period)
         select $1, 15 + n, 1 + n % 3, 'month' from generate_series(1, $2::int) n
         returning subscription_id)
       insert into subscription_products (subscription_id, product_id, position)
       select subscription_id, p.product_id, p.pos
       from created cross join lateral (
         select product_id, row_number() over () - 1 as pos
         from (select product_id from products order by product_id offset (subscription_id % 40) limit 2) x
       ) p`,
      [plan.member.subject, plan.member.subscriptions],
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A business's member directory and a year of administrators' work: `accounts` accounts with names (created a
 * minute apart) and `auditEntries` audit entries by 5 administrators over `entities` memberships and packages (500
 * unless told: each entity's label is its name, "Entity <id>").
 */
export async function growDirectoryAndAudit(
  pool: pg.Pool,
  {
    accounts,
    auditEntries,
    domain,
    entities = 500,
  }: { accounts: number; auditEntries: number; domain: string; entities?: number },
): Promise<void> {
  await pool.query(
    `insert into accounts (email, password_hash, first_name, last_name, created_at)
     select 'member' || n || '@' || $2, 'not-a-hash', 'Member', 'Number ' || n, now() - make_interval(mins => n)
     from generate_series(1, $1::int) n`,
    [accounts, domain],
  );
  await pool.query(
    `insert into audit_entries (at, actor_id, actor_email, action, entity, entity_id, before, after, label)
     select now() - make_interval(mins => n), 'actor-' || n % 5, 'admin' || n % 5 || '@' || $2,
            case when n % 2 = 0 then 'package-price-changed' else 'membership-updated' end,
            case when n % 2 = 0 then 'discount-package' else 'membership' end, (n % $3::int)::text,
            '{"name": "Before"}', '{"name": "After"}', 'Entity ' || n % $3::int
     from generate_series(1, $1::int) n`,
    [auditEntries, domain, entities],
  );
}

/**
 * The business history the overview's charts read, at the benchmark's size: orders of many members over the last
 * year (paid, a tenth refunded) and security events (sign-ins, a fifth failed, some new devices) over the 89 days the
 * product keeps them. Set-based inserts: a million rows each take seconds, not the minutes of row-by-row.
 */
export async function growBusinessHistory(
  pool: pg.Pool,
  { orders, securityEvents, domain }: { orders: number; securityEvents: number; domain: string },
): Promise<void> {
  await pool.query(
    `insert into orders (subject, total_amount, ordered_at, status)
     select 'history-' || n % 20000 || '@' || $2, 20 + n % 180, now() - make_interval(secs => (n * 31536000.0 / $1)::float8),
            case when n % 10 = 0 then 'Refunded' else 'Paid' end
     from generate_series(1, $1::int) n`,
    [orders, domain],
  );
  await pool.query(
    `insert into security_events (subject, at, event, browser, os)
     select 'history-' || n % 20000 || '@' || $2, now() - make_interval(secs => (n * 7689600.0 / $1)::float8),
            case when n % 5 = 0 then 'sign-in-failed' when n % 23 = 0 then 'new-device' else 'sign-in' end,
            'Chrome 142', 'Windows 11'
     from generate_series(1, $1::int) n`,
    [securityEvents, domain],
  );
}
