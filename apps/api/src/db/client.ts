import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

// numeric(10,2) comes back as text; the services turn it into numbers with Number().
export function createDatabase(connectionString: string): { db: Database; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client losing its server (database restarted) must not crash the process.
  pool.on('error', () => undefined);
  return { db: drizzle(pool, { schema }), pool };
}

const MIGRATION_LOCK_KEY = 7_202_611;

/** Applies the committed SQL migrations; an advisory lock lets several processes start at once. */
export async function runMigrations(db: Database, pool: pg.Pool, migrationsFolder: string) {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate(db, { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}
