import type pg from 'pg';

/** At most this many bytes of answers are kept; the least recently used go first. */
const BUDGET_BYTES = 64 * 1024 * 1024;

/**
 * Answers kept in memory per data version (`data_versions.key`): the catalog's (memberships, packages, products,
 * promotional links and the overview, whole or paged), the audit trail's and the member directory's. Every write to the data moves its
 * version on in its own transaction, and every request reads the version first (one indexed row): an answer is
 * reused only while nothing has been committed since it was built, so each API process serves the newest committed
 * state, whichever process wrote it.
 */
export function createVersionCache(pool: pg.Pool, versionKey: 'catalog' | 'audit' | 'members') {
  const entries = new Map<string, { version: string; body: string }>();
  const building = new Map<string, Promise<string>>();
  let bytes = 0;

  function remember(key: string, version: string, body: string) {
    const old = entries.get(key);
    if (old) {
      bytes -= old.body.length;
      entries.delete(key);
    }
    entries.set(key, { version, body });
    bytes += body.length;
    for (const [oldest, entry] of entries) {
      if (bytes <= BUDGET_BYTES) break;
      entries.delete(oldest);
      bytes -= entry.body.length;
    }
  }

  return {
    /**
     * The answer for `key`: from memory when the data has not changed since it was built, else from `build`.
     * The version is read before building, so a kept answer is never older than the version it is kept under.
     */
    async get(key: string, build: () => Promise<string>): Promise<string> {
      const { rows } = await pool.query<{ version: string }>({
        name: `${versionKey}_version`,
        text: `select version from data_versions where key = '${versionKey}'`,
      });
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
