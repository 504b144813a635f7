import type pg from 'pg';

/** By default at most this many bytes of answers are kept per cache; the least recently used go first. */
const BUDGET_BYTES = 64 * 1024 * 1024;
/** And at most this many answers, however small: a caller choosing many keys cannot fill memory with entries. */
const MAX_ENTRIES = 20_000;
/** What an entry costs beyond its texts (the map's slot, the record, the strings' headers), roughly. */
const ENTRY_OVERHEAD_BYTES = 128;

/** An entry's cost: its key (which holds the caller's search text) and version count as well as its answer. */
const costOf = (key: string, version: string, body: string) =>
  key.length + version.length + body.length + ENTRY_OVERHEAD_BYTES;

/** The statement that reads the version an answer depends on, given the answer's scope (a member's subject). */
export type VersionStatement = (scope: readonly string[]) => pg.QueryConfig;

/** One shared data version: the catalog's, the audit trail's or the member directory's. */
export const dataVersion =
  (key: 'catalog' | 'audit' | 'members'): VersionStatement =>
  () => ({ name: `${key}_version`, text: `select version::text from data_versions where key = '${key}'` });

/**
 * A member's own lists: their orders and subscriptions move `member:<subject>` (no row until the first write: 0), and
 * a subscription shows its products' current names and pictures, so the catalog's version is part of it.
 */
export const memberVersion: VersionStatement = ([subject]) => ({
  name: 'member_version',
  text: `select coalesce((select version from data_versions where key = 'member:' || $1), 0) || '.' ||
                (select version from data_versions where key = 'catalog') as version`,
  values: [subject],
});

/**
 * Answers kept in memory per data version (`data_versions.key`): the catalog's (memberships, packages, products,
 * promotional links and the overview, whole or paged), the audit trail's, the member directory's and each member's
 * own. Every write to the data moves its version on in its own transaction, and every request reads the version
 * first (one indexed row): an answer is reused only while nothing has been committed since it was built, so each
 * API process serves the newest committed state, whichever process wrote it.
 */
export function createVersionCache(
  pool: pg.Pool,
  versionOf: VersionStatement,
  budgetBytes = BUDGET_BYTES,
  maxEntries = MAX_ENTRIES,
) {
  const entries = new Map<string, { version: string; body: string; cost: number }>();
  const building = new Map<string, Promise<string>>();
  let bytes = 0;

  function remember(key: string, version: string, body: string) {
    const old = entries.get(key);
    if (old) {
      bytes -= old.cost;
      entries.delete(key);
    }
    const cost = costOf(key, version, body);
    // An answer bigger than the whole budget is served, not kept.
    if (cost > budgetBytes) return;
    entries.set(key, { version, body, cost });
    bytes += cost;
    for (const [oldest, entry] of entries) {
      if (bytes <= budgetBytes && entries.size <= maxEntries) break;
      entries.delete(oldest);
      bytes -= entry.cost;
    }
  }

  return {
    /** What is kept: the number of answers and their cost in bytes (keys and versions included). */
    get size() {
      return { entries: entries.size, bytes };
    },

    /**
     * The answer for `key`: from memory when the data has not changed since it was built, else from `build`.
     * The version is read before building, so a kept answer is never older than the version it is kept under.
     */
    async get(key: string, build: () => Promise<string>, scope: readonly string[] = []): Promise<string> {
      const { rows } = await pool.query<{ version: string }>(versionOf(scope));
      const version = rows[0]!.version;
      const entry = entries.get(key);
      if (entry?.version === version) {
        // Most recently used last.
        entries.delete(key);
        entries.set(key, entry);
        return entry.body;
      }
      const pendingKey = `${version}\u0000${key}`;
      let pending = building.get(pendingKey);
      if (!pending) {
        pending = build()
          .then((body) => {
            remember(key, version, body);
            return body;
          })
          .finally(() => building.delete(pendingKey));
        building.set(pendingKey, pending);
      }
      return pending;
    },
  };
}

export type VersionCache = ReturnType<typeof createVersionCache>;
