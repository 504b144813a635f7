import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { paths } from '../src/runtime.js';
import { whenDone } from './when-done.js';

/** The committed migrations and more after them, each made of its statements. */
export async function migrationsWith(...migrations: string[][]) {
  const folder = await mkdtemp(path.join(tmpdir(), 'ums-migrations-'));
  whenDone(() => rm(folder, { recursive: true, force: true }));
  await cp(paths.migrations, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
    entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
  };
  for (const [n, statements] of migrations.entries()) {
    const last = journal.entries.at(-1)!;
    const tag = `${String(last.idx + 1).padStart(4, '0')}_added_${n}`;
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag });
    await writeFile(path.join(folder, `${tag}.sql`), statements.join('\n--> statement-breakpoint\n'));
  }
  await writeFile(journalFile, JSON.stringify(journal));
  return folder;
}
