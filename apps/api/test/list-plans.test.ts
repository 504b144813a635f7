import { LISTS, SEARCH_COUNT_LIMIT } from '@ums/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productList } from '../src/modules/catalog/catalog.lists.js';
import { discountPackageList } from '../src/modules/discount-packages/discount-packages.lists.js';
import {
  listAnswer,
  listStatement,
  type AnyListDefinition,
  type ListRequest,
} from '../src/modules/lists/list-statements.js';
import { paymentHistoryList, subscriptionList } from '../src/modules/member/member.lists.js';
import {
  membershipList,
  membershipPromotionalProductList,
  promotionalProductList,
} from '../src/modules/memberships/memberships.lists.js';
import { growData, growDirectoryAndAudit } from '../src/seed/grow-data.js';
import { memberDirectoryList } from '../src/modules/admin/members.lists.js';
import { auditList } from '../src/modules/audit/audit.lists.js';
import { createDatabase } from '../src/db/client.js';
import { testDatabase } from './helper.js';
import { explained, planNodes, type PlanNode } from './plans.js';

const database = await testDatabase();
// The app's own pool settings (planner costs included), on this file's database.
const { pool } = createDatabase(database.url);
afterAll(() => pool.end());
const SUBJECT = 'plans-member';

/**
 * A table this big (the catalog, the links, a member's orders at realistic size) must be reached through an index
 * by every page, search and sort. Below it the planner may rightly read a few dozen pages in a row instead.
 */
const LARGE = 5000;

const specs: [AnyListDefinition, string, unknown[]][] = [
  [productList, 'panel 12', []],
  [membershipList, 'membership 19', []],
  [discountPackageList, 'package 1', []],
  [promotionalProductList, 'membership 19', []],
  [paymentHistoryList, 'panel 1234', [SUBJECT]],
  [paymentHistoryList, '#5', [SUBJECT]],
  [subscriptionList, 'panel', [SUBJECT]],
  [memberDirectoryList, 'member 12', []],
  // Five digits or more in a row: the digit-run index (decision 047).
  [memberDirectoryList, 'number 12345', []],
];

describe('list statements at realistic size', () => {
  let large: Set<string>;
  let membershipId = 0;

  beforeAll(async () => {
    await growData(pool, {
      products: 5000,
      memberships: 2000,
      promotionalPerMembership: 20,
      discountPackages: 200,
      productsPerPackage: 40,
      member: { subject: SUBJECT, orders: 10_000, subscriptions: 20 },
    });
    await growDirectoryAndAudit(pool, { accounts: 6000, auditEntries: 20_000, domain: 'example.com' });
    await pool.query(
      `insert into user_details (subject, first_name) select account_id::text, 'Known' from accounts
       where email like 'member1%'`,
    );
    for (const [filters, q] of [
      [{}, 'admin3 price'],
      [{ entity: 'discount-package', entityId: '42' }, 'price'],
      [{ entity: 'membership' }, 'entity 7'],
      [{ actor: 'actor-2' }, 'entity 12'],
      [{}, 'entity 12345'],
      [{ entity: 'membership' }, 'entity 12345'],
      // The catalog role's trail, whose filter is counted up to SEARCH_COUNT_LIMIT (decision 053).
      [{ catalogOnly: true }, 'entity 7'],
      [{ catalogOnly: true, actor: 'actor-2' }, 'entity 12'],
    ] as const) {
      const { spec, scope } = auditList(filters);
      specs.push([spec, q, scope]);
    }
    // What autovacuum does after a bulk load: statistics, and the trigram indexes' pending entries merged.
    await pool.query('vacuum analyze');
    const { rows } = await pool.query<{ name: string }>(
      `select relname as name from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace
       and reltuples >= $1`,
      [LARGE],
    );
    large = new Set(rows.map((r) => r.name));
    membershipId = (await pool.query<{ id: number }>('select min(membership_id) as id from memberships')).rows[0]!.id;
    specs.push([membershipPromotionalProductList, 'panel 1', [membershipId]]);
  }, 120_000);

  it('reads no large table sequentially for any page, search, sort or cursor (EXPLAIN)', async () => {
    expect([...large].sort()).toEqual(
      expect.arrayContaining([
        'discount_package_products',
        'order_items',
        'orders',
        'products',
        'promotional_products',
        'accounts',
        'audit_entries',
      ]),
    );
    const scans: string[] = [];
    let explainedPlans = 0;
    for (const [spec, q, scope] of specs) {
      for (const field of LISTS[spec.list].sorts as readonly string[]) {
        for (const sort of [field, `-${field}`]) {
          for (const search of [undefined, q]) {
            const first: ListRequest = { limit: 25, sort, q: search };
            const { body } = await listAnswer(pool, listStatement(spec, first, scope));
            const cursor = (JSON.parse(body) as { page: { nextCursor: string | null } }).page.nextCursor ?? undefined;
            const statements = (cursor ? [first, { ...first, cursor }] : [first])
              .map((request) => listStatement(spec, request, scope))
              .flatMap((statement) => [statement, ...(statement.walk ? [statement.walk] : [])]);
            for (const { text, values, name } of statements) {
              // The plan for these values, and the generic plan the app's prepared statement runs.
              const plans = [await explained(pool, text, values), await explained(pool, text)];
              for (const [i, plan] of plans.entries()) {
                explainedPlans++;
                for (const node of plan) {
                  if (node['Node Type'] === 'Seq Scan' && large.has(node['Relation Name']!)) {
                    scans.push(
                      `${i ? 'generic' : 'custom'} ${name} ${JSON.stringify(values)}: ${node['Relation Name']}`,
                    );
                  }
                }
              }
            }
          }
        }
      }
    }
    expect(explainedPlans).toBeGreaterThan(160);
    expect(scans).toEqual([]);
  }, 120_000);

  const planOf = async (spec: AnyListDefinition, request: ListRequest, scope: unknown[], generic = false) => {
    const { text, values } = listStatement(spec, request, scope);
    return generic ? explained(pool, text) : explained(pool, text, values);
  };

  it('filters the rows a trigram index finds by the whole search in the plan the app runs, the index given the pattern alone', async () => {
    for (const [spec, index] of [
      [memberDirectoryList, 'accounts_search_trgm_idx'],
      [auditList({}).spec, 'audit_entries_search_trgm_idx'],
    ] as const) {
      const plan = await planOf(spec, { limit: 25, q: 'Number 1234' }, [], true);
      const scan = plan.find((node) => node['Index Name'] === index);
      const parameter = /~~\* \$(\d+)\)?$/.exec(scan?.['Index Cond'] ?? '');
      expect(scan?.['Index Cond']).not.toContain('strpos');
      expect(plan.some((node) => node.Filter?.includes('strpos(lower('))).toBe(true);
      // The value the index's parameter takes is the number; the whole search is the filter's.
      const { values } = listStatement(spec, { limit: 25, q: 'Number 1234' });
      expect(values[Number(parameter?.[1]) - 1]).toBe('%1234%');
      expect(values).toContain('Number 1234');
      // And the plan for these values, which PostgreSQL may also choose.
      const custom = await planOf(spec, { limit: 25, q: 'Number 1234' }, []);
      expect(custom.find((node) => node['Index Name'] === index)?.['Index Cond']).toContain(`~~* '%1234%'::text`);
    }
  });

  it('looks a search holding 5 digits or more in a row up by its digit runs, then filters the rows by the whole search', async () => {
    const filtered = auditList({ entity: 'membership' });
    const cases: [AnyListDefinition, string, unknown[]][] = [
      [memberDirectoryList, 'accounts_search_digits_idx', []],
      [auditList({}).spec, 'audit_entries_search_digits_idx', []],
      // Filtered by entity: still the digit runs, not the entity's index with the function called on each row.
      [filtered.spec, 'audit_entries_search_digits_idx', filtered.scope],
    ];
    for (const [spec, index, scope] of cases) {
      const plan = await planOf(spec, { limit: 25, q: 'Number 123457' }, scope, true);
      const scan = plan.find((node) => node['Index Name'] === index);
      const parameter = /@@ \$(\d+)\)?$/.exec(scan?.['Index Cond'] ?? '');
      expect(scan?.['Index Cond']).toContain('search_digit_runs(');
      expect(plan.some((node) => node['Index Name']?.endsWith('_trgm_idx'))).toBe(false);
      expect(plan.some((node) => node.Filter?.includes('strpos(lower('))).toBe(true);
      // The index's parameter is the number as a prefix query; the whole search is the filter's.
      const { values } = listStatement(spec, { limit: 25, q: 'Number 123457' }, scope);
      expect(values[Number(parameter?.[1]) - 1]).toBe('123457:*');
      expect(values).toContain('Number 123457');
      const custom = await planOf(spec, { limit: 25, q: 'Number 123457' }, scope);
      expect(custom.find((node) => node['Index Name'] === index)?.['Index Cond']).toContain(
        `@@ '''123457'':*'::tsquery`,
      );
    }
  });

  it('pages a search matching more than SEARCH_COUNT_LIMIT rows by walking the sort’s index, without sorting its matches', async () => {
    // Every grown account is a "member…@example.com", every grown entry an "admin…" one: thousands of matches each.
    const cases: [AnyListDefinition, ListRequest, string][] = [
      [memberDirectoryList, { limit: 25, q: 'member' }, 'accounts_email_lower_idx'],
      [memberDirectoryList, { limit: 25, q: 'member', sort: '-createdAt' }, 'accounts_created_idx'],
      [auditList({}).spec, { limit: 25, q: 'admin' }, 'audit_entries_at_idx'],
    ];
    for (const [spec, request, index] of cases) {
      const statement = listStatement(spec, request, []);
      // The first statement finds more than it counts, and leaves the page to the walk.
      expect((await pool.query<{ body: string | null }>(statement)).rows[0]!.body).toBeNull();
      const { text, values } = statement.walk!;
      expect(JSON.parse((await listAnswer(pool, statement)).body).page).toMatchObject({
        total: SEARCH_COUNT_LIMIT,
        totalAtLeast: true,
      });
      const { rows: plan } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (analyze, format json) ${text}`,
        values,
      );
      const nodes = planNodes(plan[0]!['QUERY PLAN'][0].Plan) as (PlanNode & {
        'Actual Rows': number;
        'Rows Removed by Filter'?: number;
      })[];
      // The walk: the sort's index with the search as its filter, which read a few rows past the page and the row
      // after it, of the thousands that match.
      const walk = nodes.find((node) => node['Index Name'] === index);
      expect(walk?.Filter).toContain('strpos(lower(');
      expect(walk?.['Actual Rows']).toBeGreaterThanOrEqual(26);
      expect(walk!['Actual Rows'] + (walk!['Rows Removed by Filter'] ?? 0)).toBeLessThan(100);
      // The walk sorts no more than its page (the answer's rows in order); the first statement no more than the
      // matches it took.
      const walkSorts = nodes.filter((node) => node['Node Type'] === 'Sort').map((node) => node['Actual Rows']);
      expect(Math.max(0, ...walkSorts)).toBeLessThanOrEqual(26);
      const { rows: first } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (analyze, format json) ${statement.text}`,
        statement.values,
      );
      const sorted = (planNodes(first[0]!['QUERY PLAN'][0].Plan) as (PlanNode & { 'Actual Rows': number })[])
        .filter((node) => node['Node Type'] === 'Sort')
        .map((node) => node['Actual Rows']);
      expect(sorted.length).toBeGreaterThan(0);
      expect(Math.max(...sorted)).toBeLessThanOrEqual(SEARCH_COUNT_LIMIT + 1);
      // The generic plan the server's connections run walks the same index, with no index of the search beside it.
      const generic = await explained(pool, text);
      const walks = generic.filter((node) => node['Index Name'] === index);
      expect(walks.some((node) => node.Filter?.includes('strpos(lower(') && !node.Filter.includes('~~*'))).toBe(true);
    }
  });

  it('keeps a filter of the audit trail while it walks a search: an entity’s, and the catalog role’s without members', async () => {
    // The newest entries are about members, and every one of them holds the search.
    await pool.query(
      `insert into audit_entries (at, actor_id, actor_email, action, entity, entity_id, before, after, label)
       select now() + make_interval(secs => n), 'actor-1', 'admin1@example.com', 'member-groups-changed', 'member',
              'walked-' || n, '{"groups": []}', '{"groups": ["Admin"]}', 'Walked ' || n
       from generate_series(1, 1500) n`,
    );
    for (const [filters, entities] of [
      [{ entity: 'discount-package' }, ['discount-package']],
      [{ catalogOnly: true }, ['membership', 'discount-package']],
      [{}, ['member']],
    ] as const) {
      const { spec, scope } = auditList(filters);
      const statement = listStatement(spec, { limit: 100, q: 'admin' }, scope);
      expect(statement.walk).toBeDefined();
      const { data, page } = JSON.parse((await listAnswer(pool, statement)).body) as {
        data: { entity: string }[];
        page: { totalAtLeast: boolean };
      };
      expect(page.totalAtLeast).toBe(true);
      expect(data).toHaveLength(100);
      expect([...new Set(data.map((entry) => entry.entity))].sort()).toEqual([...entities].sort());
    }
  });

  it('counts a filter of the audit trail up to SEARCH_COUNT_LIMIT entries, and exactly below it', async () => {
    const totalOf = async (filters: Parameters<typeof auditList>[0]) => {
      const { spec, scope } = auditList(filters);
      const { rows } = await pool.query<{ body: string }>(listStatement(spec, { limit: 25 }, scope));
      return JSON.parse(rows[0]!.body).page as { total: number; totalAtLeast?: boolean };
    };
    // Of the 20,000 grown entries, half are about memberships (and 40 of them about membership 7), none of the
    // catalog role's about a member.
    expect(await totalOf({ entity: 'membership' })).toMatchObject({ total: SEARCH_COUNT_LIMIT, totalAtLeast: true });
    expect(await totalOf({ catalogOnly: true })).toMatchObject({ total: SEARCH_COUNT_LIMIT, totalAtLeast: true });
    expect(await totalOf({ entity: 'membership', entityId: '7' })).toMatchObject({ total: 40, totalAtLeast: false });
    expect(await totalOf({ actor: 'nobody' })).toMatchObject({ total: 0, totalAtLeast: false });
    // Unfiltered, the kept count: exact.
    const all = await totalOf({});
    expect(all.total).toBeGreaterThanOrEqual(20_000);
    expect(all.totalAtLeast).toBeUndefined();
  });

  it('reads the audit trail without parallel workers, even where the planner finds them cheap', async () => {
    const client = await pool.connect();
    try {
      // Workers for nothing: without the trail's own setting, the planner gives each of these scans two.
      await client.query(
        `set parallel_setup_cost = 0; set parallel_tuple_cost = 0;
         set min_parallel_table_scan_size = 0; set min_parallel_index_scan_size = 0`,
      );
      const trail = auditList({});
      const catalogOnly = auditList({ catalogOnly: true });
      const byActor = auditList({ actor: 'actor-2' });
      for (const [{ spec, scope }, q] of [
        [trail, 'entity 12345'],
        [trail, 'price'],
        [catalogOnly, undefined],
        [byActor, undefined],
      ] as const) {
        const statement = listStatement(spec, { limit: 25, q }, scope);
        for (const { text } of [statement, ...(statement.walk ? [statement.walk] : [])]) {
          const plan = await explained(client, text);
          expect(plan.some((node) => node['Relation Name'] === 'audit_entries')).toBe(true);
          expect(plan.filter((node) => node['Node Type'].startsWith('Gather'))).toEqual([]);
        }
      }
    } finally {
      await client.query('reset all');
      client.release();
    }
  });

  it("searches a member's orders by word through one index keyed by the member, not beside all the member's orders", async () => {
    const scans = (await planOf(paymentHistoryList, { limit: 25, q: 'panel 1234' }, [SUBJECT], true))
      .filter((node) => node['Node Type'] === 'Bitmap Index Scan')
      .map((node) => node['Index Name']);
    expect(scans).toEqual(['orders_pkey', 'orders_subject_words_idx']);
  });
});
