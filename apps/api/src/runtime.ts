import { fileURLToPath } from 'node:url';
import type { AppConfig } from './config/env.js';
import { createDatabase, runMigrations, type Database } from './db/client.js';
import { startEmbeddedPostgres } from './db/embedded.js';
import { appRoleWeakness, ensureAppRole, grantAppRole } from './db/app-role.js';
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
  /** The application role's connections (decision 025), or the owner's when asked for `as: 'owner'`. */
  db: Database;
  pool: pg.Pool;
  embedded: boolean;
  /** The embedded PostgreSQL belongs to a server running on the same data directory (the CLI shares it). */
  sharedWithServer: boolean;
  /** Closes the pool and stops the embedded PostgreSQL when this process started it. */
  close: () => Promise<void>;
}

export interface OpenDatabaseOptions {
  reuseRunning?: boolean;
  migrate?: boolean;
  log?: (message: string) => void;
  /**
   * `app` (the default): the role the server uses, which cannot change or remove audit entries. `owner`: the role
   * that migrates, for the whole-database work of backup and restore.
   */
  as?: 'app' | 'owner';
}

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL; applies migrations as the owner (unless told not to),
 * then creates and grants the application role and connects as it.
 */
export async function openDatabase(config: AppConfig, options: OpenDatabaseOptions = {}): Promise<DatabaseHandle> {
  const log = options.log ?? (() => undefined);
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres({
        dataDir: config.dataDir,
        reuseRunning: options.reuseRunning ?? false,
        ...(options.log ? { log: options.log } : {}),
      });
  const ownerUrl = embedded?.url ?? config.databaseOwnerUrl ?? config.databaseUrl!;
  const owner = createDatabase(ownerUrl);
  let app: { db: Database; pool: pg.Pool } | null = null;
  try {
    if (options.migrate !== false) {
      await runMigrations(owner.db, owner.pool, paths.migrations).catch((error: unknown) => {
        throw embedded || !config.databaseOwnerUrl ? error : ownerUrlFailure(error);
      });
    }
    if (options.as !== 'owner') app = await connectAppRole(owner.pool, embedded?.app, config, log);
  } catch (error) {
    await app?.pool.end().catch(() => undefined);
    await owner.pool.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
  if (app) await owner.pool.end().catch(() => undefined);
  const { db, pool } = app ?? owner;
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

/** A failure on DATABASE_OWNER_URL's connection, marked so that the start's one sentence names that setting. */
function ownerUrlFailure(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return Object.assign(new Error(message, { cause: error }), { variable: 'DATABASE_OWNER_URL' });
}

/**
 * The application role's pool, its grants brought up to date by the owner. With DATABASE_URL alone (or a DATABASE_URL
 * role that grants cannot bind) the one role does everything, as before, and says so once.
 */
async function connectAppRole(
  owner: pg.Pool,
  embeddedApp: { url: string; role: string; password: string } | undefined,
  config: AppConfig,
  log: (message: string) => void,
): Promise<{ db: Database; pool: pg.Pool } | null> {
  if (embeddedApp) await ensureAppRole(owner, embeddedApp.password, embeddedApp.role);
  const appUrl = embeddedApp?.url ?? (config.databaseOwnerUrl ? config.databaseUrl : undefined);
  if (!appUrl) {
    log(
      'DATABASE_URL alone: its role owns the tables, so only triggers keep the audit trail append-only (set DATABASE_OWNER_URL to migrate with another role)',
    );
    return null;
  }
  const app = createDatabase(appUrl);
  try {
    const { rows } = await app.pool.query<{ role: string }>('select current_user as role');
    const role = rows[0]!.role;
    const weakness = await appRoleWeakness(owner, role);
    if (weakness) {
      log(`The server's database role ${role} ${weakness}: only triggers keep the audit trail append-only`);
    } else {
      await grantAppRole(owner, role);
    }
    return app;
  } catch (error) {
    await app.pool.end().catch(() => undefined);
    throw error;
  }
}
