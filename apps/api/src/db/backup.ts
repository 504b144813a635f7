import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { WrappedDataKey } from '../secrets/key-service.js';
import { MigrationRefused, runMigrations, type Database } from './client.js';

// A backup is one gzip stream: a JSON header line, then each table as "TABLE name" followed by its rows in
// PostgreSQL's COPY text format and the "\." line that ends them (a row can never be that line: COPY escapes "\").

export const BACKUP_FORMAT = 'ums-backup';
const BACKUP_VERSION = 1;
const END_OF_TABLE = '\\.';

interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** How many of the committed migrations the database had: the schema the rows fit. */
  migrations: number;
  /** Parents before children, so the rows load without deferring foreign keys. */
  tables: { name: string; columns: string[]; rows: number }[];
  sequences: { name: string; value: number | null }[];
}

export class BackupError extends Error {}

/** Rethrows a migration PostgreSQL stopped as a BackupError saying `say(its reason)`; anything else as it is. */
const refusedAs = (say: (reason: string) => string) => (error: unknown) => {
  throw error instanceof MigrationRefused ? new BackupError(say(error.message), { cause: error }) : error;
};

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Tables the database derives from the others by triggers: rebuilt as the rows are restored, never written out. */
const DERIVED_TABLES = ['list_counts', 'data_versions', 'metric_slots', 'metric_rollups'];

/** The public tables, parents before children (by their foreign keys), and each one's columns in order. */
async function tablesInLoadOrder(client: pg.PoolClient) {
  const { rows: tables } = await client.query<{ name: string; columns: string[] }>(
    `select c.relname as name, array_agg(a.attname::text order by a.attnum) as columns
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     where n.nspname = 'public' and c.relkind = 'r' and c.relname <> all($1)
     group by c.relname order by c.relname`,
    [DERIVED_TABLES],
  );
  const { rows: references } = await client.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent
     from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
     join pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'f' and n.nspname = 'public' and c.oid <> p.oid`,
  );
  const ordered: typeof tables = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter(
      (t) => !placed.has(t.name) && references.every((r) => r.child !== t.name || placed.has(r.parent)),
    );
    if (ready.length === 0) throw new BackupError('The tables refer to each other in a circle: no load order exists');
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
  }
  return ordered;
}

async function appliedMigrations(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ count: number }>(
    `select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  return rows[0]!.count;
}

/**
 * Writes one consistent snapshot of every table (one REPEATABLE READ, read-only transaction) while the server keeps
 * serving. `onSnapshot` gets the exported snapshot's id while it is still open (tests read the same point in time).
 */
export async function backupDatabase(
  pool: pg.Pool,
  out: Writable,
  options: {
    onSnapshot?: (snapshotId: string) => Promise<void>;
    /**
     * Unwraps a data key (secrets/key-service.ts) for a sealed backup, which carries the keys open so that it restores
     * on a machine with another key-encryption key; without it the data keys are written as stored.
     */
    openDataKey?: (key: WrappedDataKey) => Buffer;
  } = {},
): Promise<BackupHeader> {
  const client = await pool.connect();
  const gzip = createGzip();
  const written = pipeline(gzip, out);
  try {
    await client.query('begin isolation level repeatable read, read only');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    await options.onSnapshot?.(rows[0]!.id);
    const tables = await tablesInLoadOrder(client);
    const counts: number[] = [];
    for (const t of tables) {
      counts.push((await client.query<{ n: number }>(`select count(*)::int as n from ${quote(t.name)}`)).rows[0]!.n);
    }
    const { rows: sequences } = await client.query<{ name: string; value: string | null }>(
      `select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public' order by 1`,
    );
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      migrations: await appliedMigrations(client),
      tables: tables.map((t, i) => ({ name: t.name, columns: t.columns, rows: counts[i]! })),
      sequences: sequences.map((s) => ({ name: s.name, value: s.value === null ? null : Number(s.value) })),
    };
    const write = async (text: string | Buffer) => {
      if (!gzip.write(text)) await once(gzip, 'drain');
    };
    await write(`${JSON.stringify(header)}\n`);
    for (const table of tables) {
      await write(`TABLE ${table.name}\n`);
      if (table.name === 'data_keys' && options.openDataKey) {
        await writeOpenDataKeys(client, table.columns, options.openDataKey, write);
        continue;
      }
      const columns = table.columns.map(quote).join(', ');
      const rowsOut = client.query(copyTo(`copy ${quote(table.name)} (${columns}) to stdout`));
      for await (const chunk of rowsOut) await write(chunk as Buffer);
      await write(`${END_OF_TABLE}\n`);
    }
    await client.query('commit');
    gzip.end();
    await written;
    return header;
  } catch (error) {
    gzip.destroy();
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** What `kek_id` says of a data key carried open in a sealed backup: wrapped under this machine's key on restore. */
export const OPEN_IN_BACKUP = 'open-in-backup';

/** The data keys as COPY text rows, each key's bytes open (base64url: no character COPY would escape). */
async function writeOpenDataKeys(
  client: pg.PoolClient,
  columns: string[],
  openDataKey: (key: WrappedDataKey) => Buffer,
  write: (text: string) => Promise<void>,
) {
  const { rows } = await client.query<{ id: string; kek_id: string; wrapped: string; created_at: Date; at: string }>(
    'select id, kek_id, wrapped, created_at, created_at::text as at from data_keys order by created_at',
  );
  for (const row of rows) {
    const open = openDataKey({ id: row.id, kekId: row.kek_id, wrapped: row.wrapped, createdAt: row.created_at });
    const values: Record<string, string> = {
      id: row.id,
      kek_id: OPEN_IN_BACKUP,
      wrapped: open.toString('base64url'),
      created_at: row.at,
    };
    await write(`${columns.map((column) => values[column] ?? '\\N').join('\t')}\n`);
  }
  await write(`${END_OF_TABLE}\n`);
}

/** The committed migrations as the journal lists them. */
async function journal(migrationsFolder: string): Promise<{ entries: { tag: string }[] } & Record<string, unknown>> {
  return JSON.parse(await fs.readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'));
}

/** Applies the first `count` committed migrations only: the schema a backup's rows were written in. */
export async function migrateTo(db: Database, pool: pg.Pool, migrationsFolder: string, count: number) {
  const all = await journal(migrationsFolder);
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-migrations-'));
  try {
    await fs.mkdir(path.join(folder, 'meta'));
    const entries = all.entries.slice(0, count);
    await fs.writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...all, entries }));
    for (const entry of entries)
      await fs.copyFile(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
    await runMigrations(db, pool, folder);
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

/** Whether any public table holds a row. */
async function hasRows(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'r' and c.relname <> all($1)`,
    [DERIVED_TABLES],
  );
  for (const { name } of rows) {
    const found = await pool.query(`select 1 from ${quote(name)} limit 1`);
    if (found.rowCount) return true;
  }
  return false;
}

/**
 * Loads a backup into an empty database (or, with `replace`, one whose contents it may throw away): the schema is
 * built as it was when the backup was taken, the rows and sequences are loaded in one transaction, and the newer
 * migrations run afterwards. A backup from a newer schema than this code knows is refused; nothing is changed then.
 */
export async function restoreDatabase(
  db: Database,
  pool: pg.Pool,
  input: Readable,
  options: {
    migrationsFolder: string;
    replace?: boolean;
    /** Wraps a data key the backup carries open under this machine's key-encryption key (its new `kek_id`). */
    wrapDataKey?: (id: string, key: Buffer) => { kekId: string; wrapped: string };
  },
): Promise<BackupHeader> {
  const gunzip = createGunzip();
  let unreadable = false;
  const reader = readline.createInterface({ input: input.pipe(gunzip), crlfDelay: Infinity });
  // readline does not pass its input's errors on: a file that is not gzip data would otherwise end quietly.
  gunzip.on('error', () => {
    unreadable = true;
    reader.close();
  });
  input.on('error', (error) => gunzip.destroy(error));
  const lines = reader[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next().catch((error: unknown) => {
      if (unreadable || String((error as { code?: unknown }).code).startsWith('Z_')) unreadable = true;
      else throw error;
      return { done: true as const, value: undefined };
    });
    if (unreadable) throw new BackupError('This is not a UMS backup file (it is not gzip-compressed data)');
    if (line.done) throw new BackupError('The backup file ends too early: it is cut short or not a UMS backup');
    return line.value;
  };
  let header: BackupHeader;
  try {
    header = JSON.parse(await next()) as BackupHeader;
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError('This is not a UMS backup file (no backup header at its start)');
  }
  if (header.format !== BACKUP_FORMAT || header.version !== BACKUP_VERSION) {
    throw new BackupError('This is not a UMS backup file of a version this server reads');
  }
  const known = (await journal(options.migrationsFolder)).entries.length;
  if (header.migrations > known) {
    throw new BackupError(
      `This backup comes from a newer UMS (database schema ${header.migrations}, this one knows ${known}): restore it with that version or a later one.`,
    );
  }
  if (!options.replace && (await hasRows(pool))) {
    throw new BackupError(
      'The database is not empty: restore into an empty database, or add --replace to overwrite it.',
    );
  }

  // Empty (or to be replaced): start from no schema at all and build the one the rows were written in.
  await pool.query('drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public');
  await migrateTo(db, pool, options.migrationsFolder, header.migrations).catch(
    refusedAs(
      (reason) =>
        `The schema the backup was written in could not be built, so the database is left empty: PostgreSQL stopped a step (${reason}).`,
    ),
  );

  const client = await pool.connect();
  try {
    await client.query('begin');
    for (const table of header.tables) {
      const title = await next();
      if (title !== `TABLE ${table.name}`) throw new BackupError(`The backup file is damaged near table ${table.name}`);
      const copy = client.query(
        copyFrom(`copy ${quote(table.name)} (${table.columns.map(quote).join(', ')}) from stdin`),
      );
      const done = new Promise<void>((resolve, reject) => {
        copy.on('finish', resolve);
        copy.on('error', reject);
      });
      for (let line = await next(); line !== END_OF_TABLE; line = await next()) {
        if (!copy.write(`${line}\n`)) await once(copy, 'drain');
      }
      copy.end();
      await done;
    }
    await wrapOpenDataKeys(client, options.wrapDataKey);
    for (const sequence of header.sequences) {
      if (sequence.value !== null)
        await client.query('select setval($1, $2)', [`public.${quote(sequence.name)}`, sequence.value]);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  await runMigrations(db, pool, options.migrationsFolder).catch(
    refusedAs(
      (reason) =>
        `The backup's rows are restored in the schema they were written in, but their upgrade to this version was undone: PostgreSQL stopped a step (${reason}); fix what it names, then start the server to upgrade them.`,
    ),
  );
  // The versions restart with the schema, but an API process on this database may still hold answers labelled with
  // the old ones: each moves past any number it could have reached (one a millisecond since 1970), so no answer
  // kept before the restore is ever served after it.
  await pool.query(
    `update data_versions set version = version + (extract(epoch from clock_timestamp()) * 1000)::bigint`,
  );
  return header;
}

/** A restored backup's open data keys, wrapped under this machine's key in the restore's transaction. */
async function wrapOpenDataKeys(
  client: pg.PoolClient,
  wrapDataKey: ((id: string, key: Buffer) => { kekId: string; wrapped: string }) | undefined,
) {
  const exists = await client.query(`select to_regclass('public.data_keys') is not null as present`);
  if (!(exists.rows[0] as { present: boolean }).present) return;
  const { rows } = await client.query<{ id: string; wrapped: string }>(
    'select id, wrapped from data_keys where kek_id = $1',
    [OPEN_IN_BACKUP],
  );
  if (rows.length > 0 && !wrapDataKey) {
    throw new BackupError('This backup carries data keys: restore it with the command line (npm run cli -- restore).');
  }
  for (const row of rows) {
    const { kekId, wrapped } = wrapDataKey!(row.id, Buffer.from(row.wrapped, 'base64url'));
    await client.query('update data_keys set kek_id = $2, wrapped = $3 where id = $1', [row.id, kekId, wrapped]);
  }
}
