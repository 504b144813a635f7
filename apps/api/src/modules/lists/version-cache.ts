import { fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import {
  accountDeletions,
  accounts,
  auditEntries,
  dataVersions,
  discountPackageProducts,
  discountPackages,
  listCounts,
  memberships,
  orderItems,
  orders,
  products,
  promotionalProducts,
  subscriptionProducts,
  subscriptions,
  userDetails,
} from '../../db/schema/index.js';
import { stripeKeyList } from '../../db/write-stripes.js';
import { literal } from './list-statements.js';
import { createBoundedCache, createSeenOnce, type MemoryBudget } from '../../lib/bounded-cache.js';

/** By default at most this many bytes of answers are kept per cache; the least recently used go first. */
const BUDGET_BYTES = 64 * 1024 * 1024;
/** And at most this many answers, however small: a caller choosing many keys cannot fill memory with entries. */
const MAX_ENTRIES = 20_000;
/** The searches asked once that a cache remembers (their digests), to keep the answer of the next ask. */
const ASKED_ENTRIES = 10_000;

/**
 * What moves each data version (`data_versions.key`): a write to any of these tables moves it on in the writing
 * transaction, by the triggers the migrations create (catalog 0005, audit 0012, members 0013, a member's own 0014).
 * An answer kept under a version may read only its tables (a member's lists: theirs and the catalog's, see
 * `memberVersion`). The version-triggers test holds both to the database: each table here has the trigger, and each
 * table a cached statement's plan reads is here.
 */
export const VERSIONED_TABLES = {
  catalog: [products, memberships, discountPackages, discountPackageProducts, promotionalProducts],
  audit: [auditEntries],
  members: [accounts, userDetails, accountDeletions],
  /** Per member: a statement moves the version of every member whose rows it writes. */
  'member:<subject>': [orders, orderItems, subscriptions, subscriptionProducts],
} as const satisfies Record<string, readonly PgTable[]>;

/**
 * Tables written only by triggers on versioned tables, in the statement that writes those: the lists' exact counts
 * (`list_counts`, one row per counted table, or 16 stripes for the audit trail's and the catalog lists', migrations
 * 0022 and 0023) move with the version of the table they count, so any answer may read them.
 */
export const KEPT_BY_VERSIONED_WRITES = [listCounts] as const satisfies readonly PgTable[];

/** The statement that reads the version an answer depends on, given the answer's scope (a member's subject). */
export type VersionStatement = (scope: readonly string[]) => pg.QueryConfig;

const dialect = new PgDialect();
type SharedVersion = Exclude<keyof typeof VERSIONED_TABLES, 'member:<subject>'>;

/**
 * A shared version's value, its keys literals (these statements have no parameters, as they never had): the member
 * directory's one row, or the sum of the catalog's or the audit trail's stripes (decision 036), which moves on with
 * every commit that writes them as the one row did.
 */
const sharedVersion = (key: SharedVersion) =>
  key === 'members'
    ? sql`(select ${dataVersions.version} from ${dataVersions} where ${dataVersions.key} = ${literal(key)})`
    : sql`(select sum(${dataVersions.version}) from ${dataVersions}
           where ${dataVersions.key} in (${stripeKeyList(key)}))`;

/** The shared versions' statements, generated once: they run before every cached answer. */
const SHARED_VERSION_TEXT = Object.fromEntries(
  (['catalog', 'audit', 'members'] as const).map((key) => [
    key,
    dialect.sqlToQuery(sql`select ${sharedVersion(key)}::text as version`).sql,
  ]),
) as Record<SharedVersion, string>;

/** One shared data version: the catalog's, the audit trail's or the member directory's. */
export const dataVersion =
  (key: SharedVersion): VersionStatement =>
  () => ({ name: `${key}_version`, text: SHARED_VERSION_TEXT[key] });

const MEMBER_VERSION = dialect.sqlToQuery(sql`
  select coalesce((select ${dataVersions.version} from ${dataVersions}
                   where ${dataVersions.key} = 'member:' || ${sql.placeholder('subject')}), 0) || '.' ||
         ${sharedVersion('catalog')} as version`);

/**
 * A member's own lists: their orders and subscriptions move `member:<subject>` (no row until the first write: 0), and
 * a subscription shows its products' current names and pictures, so the catalog's version is part of it.
 */
export const memberVersion: VersionStatement = ([subject]) => ({
  name: 'member_version',
  text: MEMBER_VERSION.sql,
  values: fillPlaceholders(MEMBER_VERSION.params, { subject }),
});

/**
 * Answers kept in memory per data version (`data_versions.key`): the catalog's (memberships, packages, products,
 * promotional links and the overview, whole or paged), the audit trail's, the member directory's and each member's
 * own. Every write to the data moves its version on in its own transaction, and every request for a kept answer
 * reads the version first (one indexed row, or the 16 stripes of the catalog's or the trail's, in one statement): an
 * answer is reused only while nothing has been committed since it was built, so each API process serves the newest
 * committed state, whichever process wrote it. A search's first ask is built, not kept, and reads no version.
 */
export function createVersionCache(
  pool: pg.Pool,
  versionOf: VersionStatement,
  {
    name,
    budget,
    maxBytes = BUDGET_BYTES,
    maxEntries = MAX_ENTRIES,
  }: {
    /** What the metrics call it. */
    name?: string;
    /** The budget the process's caches share (CACHE_MEMORY_MB), beside this cache's own bounds. */
    budget?: MemoryBudget | undefined;
    maxBytes?: number;
    maxEntries?: number;
  } = {},
) {
  // An entry's cost: its key (which holds the caller's search text) and version as well as its answer.
  const answers = createBoundedCache<{ version: string; body: string }>({
    name,
    budget,
    maxBytes,
    maxEntries,
    bytesOf: ({ version, body }) => version.length + body.length,
  });

  // The searches asked once, by their key's digest (decision 046). Most typed searches are asked once and never
  // again: keeping each answer cost a version read before it, its copy in memory, and the eviction of an answer that
  // was read again. A digest stays until the least recently used go: a search asked again goes the kept way, where
  // concurrent asks under one version share one build.
  const asked = createSeenOnce({ name: name && `${name}-searches`, budget, maxEntries: ASKED_ENTRIES });

  return {
    /** What is kept: the number of answers and their cost in bytes (keys and versions included). */
    get size() {
      return answers.size;
    },
    /** The same, with the cache's name (for the metrics). */
    usage: answers.usage,

    /**
     * The answer for `key`: from memory when the data has not changed since it was built, else from `build`.
     * The version is read before building, so a kept answer is never older than the version it is kept under;
     * concurrent requests under one version share one build, and a build that fails is not kept. With
     * `keptFromSecondAsk` (a search), the first ask is built and not kept, reading no version: the answer is kept
     * from the next ask of the same key.
     */
    async get(
      key: string,
      build: () => Promise<string>,
      scope: readonly string[] = [],
      { keptFromSecondAsk = false }: { keptFromSecondAsk?: boolean } = {},
    ): Promise<string> {
      // Built afresh, never shared: a request that came after a write is never served a build begun before it.
      if (keptFromSecondAsk && !answers.has(key) && asked.firstTime(key)) return build();
      const { rows } = await pool.query<{ version: string }>(versionOf(scope));
      const version = rows[0]!.version;
      const answer = await answers.build(key, async () => ({ version, body: await build() }), {
        current: (kept) => kept.version === version,
        round: version,
      });
      return answer.body;
    },
  };
}

export type VersionCache = ReturnType<typeof createVersionCache>;
