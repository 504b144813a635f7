import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { exited, prepareServer } from '@ums/testkit/server-process';
import { loadConfig } from '../src/config/env.js';
import { APP_ROLE } from '../src/db/app-role.js';
import { runningEmbeddedUrl } from '../src/db/embedded.js';
import { openDatabase, paths } from '../src/runtime.js';
import { waitFor } from './wait-for.js';
import { whenDone } from './when-done.js';
import { SOURCES, cliArgs } from './server-process.js';

// Issue 33, item 7 (decision 025): the server connects as a role that cannot change or remove the audit trail;
// migrations and grants run as the tables' owner.

const appRole = inject('appRole');
const ONLY_TRIGGERS = /only triggers keep the audit trail append-only/;

/** An empty database on the tests' PostgreSQL: its URL as the owner, and as the application role. */
async function emptyDatabase() {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `ums_roles_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  whenDone(async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  });
  const owner = new URL(adminUrl);
  owner.pathname = `/${name}`;
  const app = new URL(owner);
  app.username = appRole?.user ?? '';
  app.password = appRole?.password ?? '';
  return { owner: owner.toString(), app: app.toString() };
}

async function open(env: Record<string, string>, as?: 'owner') {
  const lines: string[] = [];
  const config = loadConfig(env, { catalogFile: paths.catalogFile });
  const database = await openDatabase(config, { log: (line) => lines.push(line), ...(as ? { as } : {}) });
  whenDone(() => database.close());
  const who = (await database.pool.query<{ who: string }>('select current_user as who')).rows[0]!.who;
  return { database, lines, who };
}

describe.skipIf(!appRole)('DATABASE_OWNER_URL with DATABASE_URL', () => {
  it('migrates an empty database as the owner and serves as the application role, which cannot touch the trail', async () => {
    const urls = await emptyDatabase();
    const env = { DATABASE_URL: urls.app, DATABASE_OWNER_URL: urls.owner };
    const { database, lines, who } = await open(env);
    expect(who).toBe(APP_ROLE);
    expect(lines).toEqual([]);
    const { rows } = await database.pool.query<{ owner: string }>(
      `select tableowner as owner from pg_tables where tablename = 'audit_entries'`,
    );
    expect(rows[0]!.owner).not.toBe(APP_ROLE);
    await expect(database.pool.query('delete from audit_entries')).rejects.toThrow(
      /permission denied for table audit_entries/,
    );
    await expect(database.pool.query('truncate audit_entries')).rejects.toThrow(
      /permission denied for table audit_entries/,
    );
    // Backup and restore ask for the owner.
    expect((await open(env, 'owner')).who).not.toBe(APP_ROLE);
  });

  it('says once that only triggers guard the trail when DATABASE_URL is the owner as well', async () => {
    const urls = await emptyDatabase();
    const { lines, who } = await open({ DATABASE_URL: urls.owner, DATABASE_OWNER_URL: urls.owner });
    expect(who).not.toBe(APP_ROLE);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(ONLY_TRIGGERS);
  });
});

describe('DATABASE_URL alone', () => {
  it('keeps one role for everything and says once that only triggers guard the trail', async () => {
    const urls = await emptyDatabase();
    const { database, lines, who } = await open({ DATABASE_URL: urls.owner });
    expect(who).not.toBe(APP_ROLE);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(ONLY_TRIGGERS);
    expect(lines[0]).toContain('DATABASE_OWNER_URL');
    await database.pool.query('select count(*) from audit_entries');
  });
});

describe('npm start on the embedded PostgreSQL', () => {
  const apiRoot = path.resolve(import.meta.dirname, '..');
  const run = promisify(execFile);

  it("connects as the application role, and the CLI beside it agrees on that role's password", async () => {
    const server = await prepareServer({ entry: SOURCES });
    const running = server.start();
    whenDone(async () => {
      running.child.kill('SIGTERM');
      await exited(running.child);
      await server.cleanup();
    });
    await server.waitReady();
    const owner = new pg.Client({ connectionString: (await runningEmbeddedUrl(server.dataDir))! });
    await owner.connect();
    whenDone(() => owner.end());
    const serverRoles = async () =>
      (
        await owner.query<{ who: string }>(
          `select distinct usename as who from pg_stat_activity
           where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
        )
      ).rows.map((r) => r.who);
    expect(await serverRoles()).toEqual([APP_ROLE]);
    expect(running.output()).not.toMatch(ONLY_TRIGGERS);

    // The CLI shares the server's PostgreSQL: its commands run as the same role, with the same password.
    const listed = await run(process.execPath, cliArgs('users', 'list'), {
      cwd: apiRoot,
      env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' },
    });
    expect(listed.stdout).toContain('member@example.com');
    // The server's connections end; the new ones it opens still sign in as the application role.
    await owner.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and usename = $1`,
      [APP_ROLE],
    );
    const ready = await waitFor(
      async () => (await fetch(`${server.base}/api/ready`)).status,
      (status) => status === 200,
    );
    expect(ready).toBe(200);
    expect(await serverRoles()).toEqual([APP_ROLE]);
  });
});
