import { LISTS, type AuditFilters } from '@ums/contracts';
import { getTableName } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../../test/helper.js';
import { growData, growDirectoryAndAudit } from '../../seed/grow-data.js';
import { memberDirectoryList } from '../admin/members.lists.js';
import { OVERVIEW_STATEMENT } from '../admin/overview.routes.js';
import { auditList } from '../audit/audit.lists.js';
import { productList } from '../catalog/catalog.lists.js';
import { discountPackageList } from '../discount-packages/discount-packages.lists.js';
import { paymentHistoryList, subscriptionList } from '../member/member.lists.js';
import {
  membershipList,
  membershipPromotionalProductList,
  promotionalProductList,
} from '../memberships/memberships.lists.js';
import { listAnswer, listStatement, type ListRequest } from './list-statements.js';
import { stripeKeys } from '../../db/write-stripes.js';
import { dataVersion, KEPT_BY_VERSIONED_WRITES, VERSIONED_TABLES } from './version-cache.js';

const database = await testDatabase();
const { pool } = database;
afterAll(() => pool.end());

const SUBJECT = 'versions-member';
type Version = keyof typeof VERSIONED_TABLES;
/** The `data_versions` key a version's declaration names, for this test's member. */
const versionKey = (version: Version) => (version === 'member:<subject>' ? `member:${SUBJECT}` : version);

async function versions(client: pg.PoolClient) {
  const { rows } = await client.query<{ key: string; version: string }>('select key, version::text from data_versions');
  return new Map(rows.map((row) => [row.key, row.version]));
}

/** A write whose effect on the versions is measured, after `setup` has run in the same transaction. */
interface Write {
  setup?: string[];
  statement: string;
}

/**
 * Writes to one row of the table (or to none where it is empty: statement triggers fire all the same), each rolled
 * back: an update that changes nothing (a column that is not generated set to itself), a delete, and an insert of a
 * row just deleted (with its own key).
 */
function writes(table: PgTable): Write[] {
  const name = getTableName(table);
  const column = getTableConfig(table).columns.find((c) => !c.generatedIdentity && !c.generated)!.name;
  const oneRow = `ctid in (select ctid from "${name}" limit 1)`;
  return [
    { statement: `update "${name}" set "${column}" = "${column}" where ${oneRow}` },
    { statement: `delete from "${name}" where ${oneRow}` },
    {
      setup: [
        `create temp table saved_row on commit drop as select * from "${name}" limit 0`,
        `with gone as (delete from "${name}" where ${oneRow} returning *) insert into saved_row select * from gone`,
      ],
      statement: `insert into "${name}" overriding system value select * from saved_row`,
    },
  ];
}

/** Runs a write; a delete that another table's row forbids (a restricting foreign key) deletes no row instead. */
async function run(client: pg.PoolClient, statement: string) {
  await client.query('savepoint write');
  try {
    await client.query(statement);
  } catch (error) {
    // foreign_key_violation, restrict_violation
    const code = (error as { code?: string }).code ?? '';
    if (!['23503', '23001'].includes(code) || !/^(with gone as \()?delete /.test(statement)) throw error;
    await client.query('rollback to savepoint write');
    if (!statement.startsWith('with')) await client.query(`${statement.split(' where ')[0]!} where false`);
  }
}

/** The trail refuses updates and deletes (it is append-only): a new entry is its write. */
const WRITES: Record<string, Write[]> = {
  audit_entries: [
    {
      statement: `insert into audit_entries (actor_id, actor_email, action, entity, entity_id, label)
                  values ('versions-actor', 'versions@example.com', 'membership-created', 'membership', '1', 'x')`,
    },
  ],
};

interface PlanNode {
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const relations = (plan: PlanNode): string[] => [
  ...(plan['Relation Name'] ? [plan['Relation Name']] : []),
  ...(plan.Plans ?? []).flatMap(relations),
];

type AnyList = Parameters<typeof listStatement>[0];
/** Every cached list, by the versions its cache keeps it under (see `createLists`), with a search and a scope. */
const CACHED_LISTS: { versions: Version[]; list: AnyList; q: string; scope: () => unknown[] }[] = [];

beforeAll(async () => {
  await growData(pool, {
    products: 30,
    memberships: 10,
    promotionalPerMembership: 3,
    discountPackages: 3,
    productsPerPackage: 3,
    member: { subject: SUBJECT, orders: 5, subscriptions: 3 },
  });
  await growDirectoryAndAudit(pool, { accounts: 5, auditEntries: 5, domain: 'example.com' });
  const membershipId = (await pool.query<{ id: number }>('select min(membership_id) as id from memberships')).rows[0]!
    .id;
  const catalog: Version[] = ['catalog'];
  CACHED_LISTS.push(
    { versions: catalog, list: productList, q: 'panel', scope: () => [] },
    { versions: catalog, list: membershipList, q: 'membership', scope: () => [] },
    { versions: catalog, list: discountPackageList, q: 'package', scope: () => [] },
    { versions: catalog, list: promotionalProductList, q: 'panel', scope: () => [] },
    { versions: catalog, list: membershipPromotionalProductList, q: 'panel', scope: () => [membershipId] },
    { versions: ['members'], list: memberDirectoryList, q: 'member', scope: () => [] },
    // A member's lists are kept under their own version and the catalog's (`memberVersion`).
    { versions: ['member:<subject>', 'catalog'], list: paymentHistoryList, q: 'panel', scope: () => [SUBJECT] },
    { versions: ['member:<subject>', 'catalog'], list: subscriptionList, q: 'panel', scope: () => [SUBJECT] },
  );
  const filtered: AuditFilters[] = [
    {},
    { entity: 'membership', entityId: '1' },
    { entity: 'membership' },
    { actor: 'a' },
  ];
  for (const filters of filtered) {
    const { spec, scope } = auditList(filters);
    CACHED_LISTS.push({ versions: ['audit'], list: spec, q: 'admin', scope: () => scope });
  }
}, 60_000);

describe('the data versions that cached answers are kept under', () => {
  it.each(Object.keys(VERSIONED_TABLES) as Version[])(
    'move %s on a write to each table its declaration names (the trigger is there)',
    async (version) => {
      const unmoved: string[] = [];
      const client = await pool.connect();
      // The catalog's and the trail's versions are read as their caches read them (the sum of their stripes), after
      // a write in every stripe a transaction can name (decision 036); the others as their row.
      const striped = version === 'catalog' || version === 'audit';
      const read = async () =>
        striped
          ? (await client.query<{ version: string }>(dataVersion(version)([]).text)).rows[0]!.version
          : (await versions(client)).get(versionKey(version));
      try {
        for (const table of VERSIONED_TABLES[version]) {
          const name = getTableName(table);
          for (const { setup = [], statement } of WRITES[name] ?? writes(table)) {
            for (const stripe of striped ? stripeKeys(version).map((_, n) => n) : [0]) {
              await client.query('begin');
              let before: string | undefined, after: string | undefined;
              try {
                await client.query(`select set_config('ums.write_stripe', $1, true)`, [String(stripe)]);
                for (const step of setup) await run(client, step);
                before = await read();
                await run(client, statement);
                after = await read();
              } finally {
                await client.query('rollback');
              }
              if (after === undefined || after === before)
                unmoved.push(`${statement.split(/ where | select /)[0]!} (stripe ${stripe})`);
            }
          }
        }
      } finally {
        client.release();
      }
      expect(unmoved).toEqual([]);
    },
  );

  it('are declared for every table a cached answer reads, in every sort, direction, search and page (EXPLAIN)', async () => {
    const kept = new Set<string>(KEPT_BY_VERSIONED_WRITES.map((table) => getTableName(table)));
    const undeclared = new Set<string>();
    let explained = 0;
    const explain = async (name: string, versionsKept: Version[], text: string, values: unknown[] = []) => {
      const declared = new Set(versionsKept.flatMap((version) => VERSIONED_TABLES[version].map(getTableName)));
      const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (format json) ${text}`,
        values,
      );
      explained++;
      for (const relation of relations(rows[0]!['QUERY PLAN'][0].Plan)) {
        if (!declared.has(relation) && !kept.has(relation)) undeclared.add(`${name} (${versionsKept}): ${relation}`);
      }
    };
    for (const { versions: versionsKept, list, q, scope } of CACHED_LISTS) {
      for (const field of LISTS[list.list].sorts as readonly string[]) {
        for (const sort of [field, `-${field}`]) {
          for (const search of [undefined, q]) {
            for (const limit of [undefined, 2]) {
              const first: ListRequest = { limit, sort, q: search };
              const { body } = await listAnswer(pool, listStatement(list, first, scope()));
              const cursor = (JSON.parse(body) as { page?: { nextCursor: string | null } }).page?.nextCursor;
              for (const request of cursor ? [first, { ...first, cursor }] : [first]) {
                const statement = listStatement(list, request, scope());
                // A large list's search walks in a statement of its own (decision 053).
                for (const { text, values } of [statement, ...(statement.walk ? [statement.walk] : [])]) {
                  await explain(list.name, versionsKept, text, values);
                }
              }
            }
          }
        }
      }
    }
    await explain('admin overview', ['catalog'], OVERVIEW_STATEMENT.text);
    expect(explained).toBeGreaterThan(150);
    expect([...undeclared]).toEqual([]);
  }, 120_000);
});
