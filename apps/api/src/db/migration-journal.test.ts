import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

describe('the migrations’ journal', () => {
  // drizzle applies a migration only when its journal time is later than the last one the database has applied: one
  // dated earlier than its predecessor would be skipped on every database that already has the predecessor.
  it('dates each migration later than the one before it, and lists every SQL file in order', async () => {
    const journal = JSON.parse(await readFile(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
      entries: { idx: number; when: number; tag: string }[];
    };
    const files = (await readdir(folder)).filter((name) => name.endsWith('.sql')).sort();
    expect(journal.entries.map((entry) => `${entry.tag}.sql`)).toEqual(files);
    journal.entries.forEach((entry, n) => {
      expect(entry.idx).toBe(n);
      const before = journal.entries[n - 1];
      if (before) {
        expect(entry.when, `${entry.tag}'s "when" must be above ${before.tag}'s ${before.when}`).toBeGreaterThan(
          before.when,
        );
      }
    });
  });
});
