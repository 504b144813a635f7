import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { bundle } from '../bundle.mjs';
import { APP_ROLE, ensureAppRole, grantAppRole } from '../src/db/app-role.js';
import { createDatabase, runMigrations } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { paths } from '../src/runtime.js';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
    /** The application role the apps under test connect as, or null where the server lets no role be created. */
    appRole: { user: string; password: string } | null;
    /** The folder holding this run's bundle of the server and the CLI (server.js, cli.js). */
    serverBundle: string;
  }
}

const TEMPLATE = `ums_test_template_${process.pid}`;

/**
 * One PostgreSQL for the run: TEST_DATABASE_URL when set, otherwise a throw-away embedded one.
 * A migrated template database lets every test file clone its own database in milliseconds.
 */
export default async function setup(project: TestProject) {
  // The server and the CLI as the tests start them: bundled from the sources once, not compiled by tsx at every start.
  const serverBundle = path.resolve(import.meta.dirname, '../.test-build');
  await bundle(serverBundle);
  project.provide('serverBundle', serverBundle);
  let stop = async () => {};
  const external = project.config.env?.['UMS_TEST_DATABASE'] === 'external';
  let adminUrl = external ? process.env['TEST_DATABASE_URL'] : undefined;
  /** This run starts its own cluster, and throws it away after. */
  const ownCluster = !adminUrl;
  let appPassword = randomBytes(18).toString('base64url');
  if (!adminUrl) {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-test-'));
    await fs.chmod(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres({ dataDir });
    adminUrl = embedded.url;
    appPassword = embedded.app.password;
    stop = async () => {
      await embedded.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  if (ownCluster) {
    // A cluster thrown away after the run need not survive a crash of the machine: PostgreSQL's non-durable settings
    // for such a cluster (its manual, "Non-Durable Settings") spare every commit its wait for the disk. The tests that
    // kill PostgreSQL or the server run their own, as the product sets it up.
    for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes']) {
      await admin.query(`alter system set ${setting} = off`);
    }
    await admin.query('select pg_reload_conf()');
  }
  await admin.query(`drop database if exists ${TEMPLATE} with (force)`);
  await admin.query(`create database ${TEMPLATE}`);
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${TEMPLATE}`;
  const { db, pool } = createDatabase(templateUrl.toString());
  await runMigrations(db, pool, paths.migrations);
  // As a server does after migrating (decision 025); every clone of the template keeps the grants.
  // Only an external server whose connection may not create roles (42501) runs the suite as one role; anywhere else
  // a failure here is a failure, not a quiet fallback that would skip the application role's tests.
  const appRole = await ensureAppRole(admin, appPassword).then(
    () => ({ user: APP_ROLE, password: appPassword }),
    (error: unknown) => {
      if (external && (error as { code?: string }).code === '42501') return null;
      throw error;
    },
  );
  if (appRole) await grantAppRole(pool, appRole.user);
  await pool.end();
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', TEMPLATE);
  project.provide('appRole', appRole);
  return async () => {
    await admin.query(`drop database if exists ${TEMPLATE} with (force)`).catch(() => undefined);
    await admin.end();
    await stop();
  };
}
