import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/helper.js';
import { whenDone } from '../../test/when-done.js';
import { paths } from '../runtime.js';
import { describeStartFailure } from '../start-failure.js';
import { MigrationRefused, runMigrations } from './client.js';

/** The committed migrations and one more after them, made of `statements`. */
async function migrationsWith(statements: string[]) {
  const folder = await mkdtemp(path.join(tmpdir(), 'ums-migrations-'));
  whenDone(() => rm(folder, { recursive: true, force: true }));
  await cp(paths.migrations, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
    entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
  };
  const last = journal.entries.at(-1)!;
  const tag = `${String(last.idx + 1).padStart(4, '0')}_refused`;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag });
  await writeFile(journalFile, JSON.stringify(journal));
  await writeFile(path.join(folder, `${tag}.sql`), statements.join('\n--> statement-breakpoint\n'));
  return folder;
}

describe('an upgrade PostgreSQL refuses', () => {
  it('changes nothing and says in one sentence what the server refused and what to do', async () => {
    const { db, pool } = await testDatabase();
    const folder = await migrationsWith([
      'CREATE TABLE "refused_probe" ("x" integer);',
      'CREATE TABLE "products" ("x" integer);',
    ]);
    const applied = async () =>
      Number((await pool.query('select count(*) from drizzle.__drizzle_migrations')).rows[0].count);
    const before = await applied();

    const failure = await runMigrations(db, pool, folder).then(
      () => null,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(MigrationRefused);
    expect(await applied()).toBe(before);
    expect((await pool.query(`select to_regclass('refused_probe') as probe`)).rows[0].probe).toBeNull();
    expect(describeStartFailure(failure, {})).toBe(
      'The database schema could not be upgraded, and nothing in it was changed, because PostgreSQL refused a step (relation "products" already exists): fix what it names, or restore a backup of this database, then start again.',
    );
  });
});
