import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { accessToken, dpopHeaders, refresh, signIn, signsInSilently } from '@ums/testkit/oidc-browser';
import { exited, prepareServer } from '@ums/testkit/server-process';
import { BackupError, backupDatabase, migrateTo, restoreDatabase } from '../src/db/backup.js';
import { createDatabase } from '../src/db/client.js';
import { paths } from '../src/runtime.js';
import { runningEmbeddedUrl } from '../src/db/embedded.js';
import { unwrapDataKey } from '../src/secrets/key-service.js';
import { loadSecretsKey } from '../src/secrets/secrets-key.js';
import { migrationsWith } from './migrations-with.js';
import { waitFor } from './wait-for.js';
import { SOURCES, cliArgs } from './server-process.js';

const run = promisify(execFile);
const apiRoot = path.resolve(import.meta.dirname, '..');
const ADMIN_PASSWORD = 'Backup-Admin-2026!';
const MEMBER_PASSWORD = 'Backup-Member-2026!';
const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-backup-'));
// Open to others (not writable by them), as a server's data folder: run as root, PostgreSQL (another user) then keeps
// its cluster inside the data folders made here, and it goes with them, instead of under /var/lib/ums for good.
await fs.chmod(folder, 0o755);
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

/** The id of the key in a data directory's secrets.key (the key itself never leaves the file). */
async function readKekId(dataDir: string) {
  const { kek } = await loadSecretsKey({
    secretsKey: undefined,
    secretsKeyFile: path.join(dataDir, 'secrets.key'),
    generate: false,
  });
  return kek.id;
}

/** The operator CLI from the sources on a data directory of its own: exit code and what it printed. */
async function cli(args: string[], dataDir: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArgs(...args), {
      cwd: apiRoot,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', BACKUP_PASSPHRASE: 'backup test passphrase' },
    });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

/** Every row of every public table, in a stable order, as one comparable value. */
async function contents(client: pg.Client | pg.PoolClient) {
  const { rows: tables } = await client.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' order by 1`,
  );
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    out[name] = (await client.query(`select * from "${name}" order by 1, 2`)).rows;
  }
  // The catalog version only labels cached answers: a restored database starts its own count. The kept row counts
  // (list_counts) are compared like data: the triggers rebuild them as the rows come back.
  out['data_versions'] = (out['data_versions'] as { key: string }[]).map(({ key }) => ({ key }));
  // A striped count (`audit_entries#3`, decision 036) means the sum of its stripes: the writers spread it over them,
  // and the restore's triggers rebuild it in stripe 0.
  const counts = new Map<string, number>();
  for (const { key, n } of out['list_counts'] as { key: string; n: string }[]) {
    const counted = key.split('#')[0]!;
    counts.set(counted, (counts.get(counted) ?? 0) + Number(n));
  }
  out['list_counts'] = [...counts].map(([key, n]) => ({ key, n }));
  return out;
}

describe('backup and restore', () => {
  it(
    'backs up under write load, restores into a fresh embedded PostgreSQL row for row, and members stay signed in',
    { timeout: 240_000 },
    async () => {
      const source = await prepareServer({
        entry: SOURCES,
        env: { DEMO_ADMIN_PASSWORD: ADMIN_PASSWORD, DEMO_MEMBER_PASSWORD: MEMBER_PASSWORD },
      });
      const first = source.start();
      await source.waitReady();
      const member = await signIn(source.base, 'member@example.com', MEMBER_PASSWORD);
      const admin = await accessToken(source.base, 'admin@example.com', ADMIN_PASSWORD);

      // Writers keep creating packages through the API during the backup.
      let writing = true;
      let written = 0;
      const writer = async (lane: number) => {
        for (let i = 0; writing; i++) {
          const answer = await fetch(`${source.base}/api/discountPackage`, {
            method: 'POST',
            headers: {
              ...dpopHeaders(admin, 'POST', `${source.base}/api/discountPackage`),
              'content-type': 'application/json',
            },
            body: JSON.stringify({ name: `during-backup-${lane}-${i}`, description: 'written while backing up' }),
          });
          if (answer.status === 201) written++;
        }
      };
      const writers = [writer(0), writer(1)];
      /** Until the writers have had `more` packages acknowledged beyond what they had when it was called. */
      const writtenMore = async (more: number) => {
        const from = written;
        expect(
          await waitFor(
            () => written - from,
            (count) => count >= more,
            30_000,
          ),
        ).toBeGreaterThanOrEqual(more);
      };
      await writtenMore(5);

      const url = (await runningEmbeddedUrl(source.dataDir))!;
      const pool = new pg.Pool({ connectionString: url });
      const file = path.join(folder, 'snapshot.ums.gz');
      let expected: Record<string, unknown[]> = {};
      // As `cli backup` does: the data keys go into the file open, so the new machine wraps them under its own key.
      const sourceKey = await loadSecretsKey({
        secretsKey: undefined,
        secretsKeyFile: path.join(source.dataDir, 'secrets.key'),
        generate: false,
      });
      const header = await backupDatabase(pool, createWriteStream(file), {
        openDataKey: (key) => unwrapDataKey(key, [sourceKey.kek]),
        // Read the same point in time the backup reads, while the writers go on.
        onSnapshot: async (id) => {
          const reader = new pg.Client({ connectionString: url });
          await reader.connect();
          await reader.query('begin isolation level repeatable read, read only');
          await reader.query(`set transaction snapshot '${id}'`);
          expected = await contents(reader);
          await reader.query('commit');
          await reader.end();
          // Rows written after the snapshot, before the backup reads the tables: the backup must not hold them.
          await writtenMore(3);
        },
      });
      await writtenMore(3);
      writing = false;
      await Promise.all(writers);
      await pool.end();
      first.child.kill('SIGTERM');
      await exited(first.child);

      // Rows were written before and after the snapshot, so it is a real point in time, not the end state.
      const packagesInBackup = header.tables.find((t) => t.name === 'discount_packages')!.rows;
      expect(expected['discount_packages']).toHaveLength(packagesInBackup);
      expect(written).toBeGreaterThan(packagesInBackup - 2);
      expect(
        (expected['discount_packages'] as { name: string }[]).some((p) => p.name.startsWith('during-backup-')),
      ).toBe(true);
      expect(expected['oidc_payloads']!.length).toBeGreaterThan(0);

      // Restore into a fresh data directory through the CLI, then start a server on it at the same address.
      const target = await prepareServer({ entry: SOURCES, env: { PUBLIC_URL: source.base } });
      const restored = await cli(['restore', '--in', file], target.dataDir);
      expect(restored.output).toMatch(/^Restored .*snapshot\.ums\.gz: \d+ tables, \d+ rows, taken /m);
      expect(restored.code).toBe(0);
      const again = await cli(['restore', '--in', file], target.dataDir);
      expect(again.code).toBe(1);
      expect(again.output.trim()).toBe(
        'The database is not empty: restore into an empty database, or add --replace to overwrite it.',
      );

      const second = target.start();
      await target.waitReady();
      try {
        const client = new pg.Client({ connectionString: (await runningEmbeddedUrl(target.dataDir))! });
        await client.connect();
        const actual = await contents(client);
        await client.end();
        expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
        for (const table of Object.keys(expected)) {
          // The same data keys, wrapped under the new machine's key instead of the old one's.
          const ids = (rows: unknown[]) => (rows as { id: string; kek_id: string }[]).map((row) => row.id);
          if (table === 'data_keys') {
            expect(ids(actual[table]!), table).toEqual(ids(expected[table]!));
            const keyIds = new Set((actual[table] as { kek_id: string }[]).map((row) => row.kek_id));
            expect([...keyIds]).toEqual([(await readKekId(target.dataDir))!]);
          } else expect(actual[table], table).toEqual(expected[table]);
        }

        // The member signed in before the backup: the access token, the refresh token and the browser session.
        const base = target.base;
        // Its public address is still the source's, which the browser's proof names.
        const read = await fetch(`${base}/api/userdetails/`, {
          headers: dpopHeaders(member.access_token, 'GET', `${source.base}/api/userdetails/`),
        });
        expect(read.status).toBe(200);
        const renewed = await refresh(base, member.refresh_token, undefined, source.base);
        expect(renewed.status).toBe(200);
        expect(await signsInSilently(base, member.go, source.base)).toBe(true);
      } finally {
        second.child.kill('SIGTERM');
        await exited(second.child);
        await Promise.all([source.cleanup(), target.cleanup()]);
      }
    },
  );

  it(
    'the CLI writes a backup and restores over a database with --replace; a newer schema, a file that is not a backup and a missing one are refused in one sentence',
    { timeout: 120_000 },
    async () => {
      const dataDir = await fs.mkdtemp(path.join(folder, 'data-'));
      await fs.chmod(dataDir, 0o755);
      const newer = path.join(folder, 'newer.ums.gz');
      const gzip = createGzip();
      const done = new Promise<void>((resolve) => gzip.pipe(createWriteStream(newer)).on('finish', () => resolve()));
      gzip.end(
        `${JSON.stringify({ format: 'ums-backup', version: 1, createdAt: '2030-01-01T00:00:00Z', migrations: 999, tables: [], sequences: [] })}\n`,
      );
      await done;
      const refused = await cli(['restore', '--in', newer], dataDir);
      expect(refused.code).toBe(1);
      expect(refused.output.trim()).toMatch(
        /^This backup comes from a newer UMS \(database schema 999, this one knows \d+\): restore it with that version or a later one\.$/,
      );
      const notBackup = path.join(folder, 'notes.txt');
      await fs.writeFile(notBackup, 'not a backup');
      const wrong = await cli(['restore', '--in', notBackup], dataDir);
      expect(wrong.code).toBe(1);
      expect(wrong.output.trim()).toBe('This is not a UMS backup file (it is not gzip-compressed data)');
      const missing = await cli(['restore', '--in', path.join(folder, 'nowhere.gz')], dataDir);
      expect(missing.code).toBe(1);
      expect(missing.output).toContain('Cannot read');

      const own = path.join(folder, 'own.ums.gz');
      const written = await cli(['backup', '--out', own], dataDir);
      expect(written.code).toBe(0);
      expect(written.output.trim()).toMatch(
        /^Backup written to .*own\.ums\.gz: \d+ tables, \d+ rows \(database schema \d+\)\.$/,
      );
      const replaced = await cli(['restore', '--in', own, '--replace'], dataDir);
      expect(replaced.code).toBe(0);
      expect(replaced.output).toMatch(/^Restored /m);
    },
  );

  /**
   * A backup of a database as the release before the revocations table (the fifth migration) left it, holding one
   * product, and an empty database to restore it into; both are dropped after `use`.
   */
  async function withOlderBackup(
    use: (
      newer: ReturnType<typeof createDatabase>,
      backup: { input: PassThrough; migrations: number; tables: string[] },
    ) => Promise<void>,
  ) {
    const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
    await admin.connect();
    const databases = [`ums_old_${randomBytes(4).toString('hex')}`, `ums_new_${randomBytes(4).toString('hex')}`];
    for (const name of databases) await admin.query(`create database ${name}`);
    const open = (name: string) => {
      const url = new URL(inject('adminDatabaseUrl'));
      url.pathname = `/${name}`;
      return createDatabase(url.toString());
    };
    const older = open(databases[0]!);
    const newer = open(databases[1]!);
    try {
      await migrateTo(older.db, older.pool, paths.migrations, 4);
      await older.pool.query(`insert into products (product_id, name, retail_price) values (4242, 'Old Panel', 12.5)`);
      const file = new PassThrough();
      const chunks: Buffer[] = [];
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      const header = await backupDatabase(older.pool, file);
      const input = new PassThrough();
      input.end(Buffer.concat(chunks));
      await use(newer, { input, migrations: header.migrations, tables: header.tables.map((t) => t.name) });
    } finally {
      await older.pool.end();
      await newer.pool.end();
      for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }

  it('restores a backup of an older schema and then applies the newer migrations to it', async () => {
    await withOlderBackup(async (newer, backup) => {
      expect(backup.migrations).toBe(4);
      expect(backup.tables).not.toContain('token_revocations');

      await restoreDatabase(newer.db, newer.pool, backup.input, { migrationsFolder: paths.migrations });
      const { rows } = await newer.pool.query(`select name, retail_price from products where product_id = 4242`);
      expect(rows).toEqual([{ name: 'Old Panel', retail_price: '12.50' }]);
      const applied = await newer.pool.query(`select count(*)::int as n from drizzle.__drizzle_migrations`);
      const journal = JSON.parse(await fs.readFile(path.join(paths.migrations, 'meta', '_journal.json'), 'utf8'));
      expect(applied.rows[0].n).toBe((journal as { entries: unknown[] }).entries.length);
      await expect(newer.pool.query('select count(*) from token_revocations')).resolves.toBeTruthy();
    });
  });

  it('keeps the restored rows in their own schema and says so in one sentence when PostgreSQL refuses their upgrade', async () => {
    await withOlderBackup(async (newer, backup) => {
      // A later migration that the restored data is in the way of.
      const folder = await migrationsWith(['CREATE TABLE "products" ("x" integer);']);

      await expect(restoreDatabase(newer.db, newer.pool, backup.input, { migrationsFolder: folder })).rejects.toThrow(
        new BackupError(
          `The backup's rows are restored in the schema they were written in, but their upgrade to this version was undone: PostgreSQL stopped a step (relation "products" already exists); fix what it names, then start the server to upgrade them.`,
        ),
      );
      const { rows } = await newer.pool.query(`select name from products where product_id = 4242`);
      expect(rows).toEqual([{ name: 'Old Panel' }]);
      const applied = await newer.pool.query(`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(applied.rows[0].n).toBe(4);
    });
  });

  it('moves every data version past the clock on restore, so an API process never serves an answer kept before the restore under a restarted version', async () => {
    const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
    await admin.connect();
    const name = `ums_versions_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${name}`);
    const url = new URL(inject('adminDatabaseUrl'));
    url.pathname = `/${name}`;
    const target = createDatabase(url.toString());
    try {
      await migrateTo(target.db, target.pool, paths.migrations, Number.MAX_SAFE_INTEGER);
      await target.pool.query(`insert into products (product_id, name, retail_price) values (4343, 'Kept Panel', 9)`);
      await target.pool.query(
        `insert into orders (subject, total_amount, ordered_at, status) values ('member-v', 9, now(), 'Paid')`,
      );
      const versions = async () =>
        Object.fromEntries(
          (
            await target.pool.query<{ key: string; version: string }>('select key, version from data_versions')
          ).rows.map((r) => [r.key, Number(r.version)]),
        );
      const before = await versions();
      expect(before).toMatchObject({ catalog: expect.any(Number), 'member:member-v': 1 });

      const file = new PassThrough();
      const chunks: Buffer[] = [];
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      await backupDatabase(target.pool, file);
      const input = new PassThrough();
      input.end(Buffer.concat(chunks));
      const restoredAt = Date.now();
      await restoreDatabase(target.db, target.pool, input, { migrationsFolder: paths.migrations, replace: true });

      const after = await versions();
      expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
      for (const [key, version] of Object.entries(after)) {
        expect(version, key).toBeGreaterThanOrEqual(restoredAt);
        expect(version, key).toBeGreaterThan(before[key]!);
      }
    } finally {
      await target.pool.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
