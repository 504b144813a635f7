import { fileURLToPath } from 'node:url';
import type { AppConfig } from './config/env.js';
import { createDatabase, runMigrations, type Database } from './db/client.js';
import { startEmbeddedPostgres } from './db/embedded.js';
import type pg from 'pg';

// src/ and dist/ are siblings, so these resolve the same from the sources and from the bundle.
const fromApi = (relative: string) => fileURLToPath(new URL(`../${relative}`, import.meta.url));
export const paths = {
  migrations: fromApi('src/db/migrations'),
  catalogFile: fromApi('catalog/products.json'),
  catalogImages: fromApi('public/catalog-images'),
  webRoot: fromApi('../web/dist'),
};

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  embedded: boolean;
  /** The embedded PostgreSQL belongs to a server running on the same data directory (the CLI shares it). */
  sharedWithServer: boolean;
  /** Closes the pool and stops the embedded PostgreSQL when this process started it. */
  close: () => Promise<void>;
}

/** Connects to DATABASE_URL, or starts the embedded PostgreSQL; then applies migrations (unless told not to). */
export async function openDatabase(
  config: AppConfig,
  options: { reuseRunning?: boolean; migrate?: boolean; log?: (message: string) => void } = {},
): Promise<DatabaseHandle> {
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres({
        dataDir: config.dataDir,
        reuseRunning: options.reuseRunning ?? false,
        ...(options.log ? { log: options.log } : {}),
      });
  const url = config.databaseUrl ?? embedded!.url;
  const { db, pool } = createDatabase(url);
  try {
    if (options.migrate !== false) await runMigrations(db, pool, paths.migrations);
  } catch (error) {
    await pool.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
  return {
    db,
    pool,
    embedded: embedded !== null,
    sharedWithServer: embedded !== null && !embedded.owned,
    close: async () => {
      await pool.end().catch(() => undefined);
      await embedded?.stop();
    },
  };
}
