import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDatabase } from '../src/db/backup.js';
import { BACKUP_MESSAGES, sealingStream } from '../src/db/sealed-backup.js';
import { testDatabase } from './helper.js';
import { cliArgs } from './server-process.js';

const run = promisify(execFile);
const apiRoot = path.resolve(import.meta.dirname, '..');
const PASSPHRASE = 'correct horse battery staple';
const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-sealed-'));
// Open to others (not writable by them), as a server's data folder: run as root, PostgreSQL (another user) then keeps
// its cluster inside the data folders made here, and it goes with them, instead of under /var/lib/ums for good.
await fs.chmod(folder, 0o755);
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

const withoutPassphrase = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name !== 'BACKUP_PASSPHRASE'),
);

/** The operator CLI from the sources on a data directory of its own: exit code and what it printed. */
async function cli(args: string[], dataDir: string, env: Record<string, string> = { BACKUP_PASSPHRASE: PASSPHRASE }) {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArgs(...args), {
      cwd: apiRoot,
      // Only the passphrase given here: none from the environment the tests run in.
      env: { ...withoutPassphrase, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    });
    return { code: 0, output: `${stdout}${stderr}`.trim() };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}`.trim() };
  }
}

describe('sealed backups', () => {
  it('hold no member email, refresh token or reset link in readable form (the same backup unsealed does)', async () => {
    const { pool } = await testDatabase();
    const email = `sealed-${randomBytes(4).toString('hex')}@example.com`;
    const refreshToken = randomBytes(32).toString('base64url');
    const resetLink = `http://localhost:8080/oidc/password/reset?token=${randomBytes(32).toString('base64url')}`;
    await pool.query(`insert into accounts (email, password_hash) values ($1, 'not-a-real-hash')`, [email]);
    await pool.query(`insert into oidc_payloads (model, id, payload) values ('RefreshToken', $1, '{}')`, [
      refreshToken,
    ]);
    await pool.query(`insert into mail_outbox (recipient, subject, body) values ($1, 'Reset', $2)`, [
      email,
      `Open ${resetLink}`,
    ]);

    const plain: Buffer[] = [];
    const sealedChunks: Buffer[] = [];
    const sealed = await sealingStream(PASSPHRASE);
    sealed.on('data', (chunk: Buffer) => sealedChunks.push(chunk));
    const unsealed = new PassThrough();
    unsealed.on('data', (chunk: Buffer) => plain.push(chunk));
    await backupDatabase(pool, unsealed);
    await backupDatabase(pool, sealed);
    await pool.end();

    const readable = gunzipSync(Buffer.concat(plain)).toString('utf8');
    for (const secret of [email, refreshToken, resetLink]) expect(readable).toContain(secret);
    const file = Buffer.concat(sealedChunks);
    for (const secret of [email, refreshToken, resetLink]) {
      expect(file.includes(secret)).toBe(false);
      expect(file.includes(Buffer.from(secret, 'utf16le'))).toBe(false);
    }
    // Not gzip either: the data is ciphertext after the seal's two header lines.
    expect(file.subarray(0, 20).toString('latin1')).toBe('UMS-SEALED-BACKUP 1\n');
  });

  it(
    'the CLI writes a 0600 sealed file, restores it with the passphrase, and refuses a wrong or missing one, a changed file and an open folder without changing anything',
    { timeout: 180_000 },
    async () => {
      const dataDir = await fs.mkdtemp(path.join(folder, 'data-'));
      await fs.chmod(dataDir, 0o755);
      const email = `kept-${randomBytes(4).toString('hex')}@example.com`;
      expect((await cli(['users', 'add', '--email', email, '--password', 'Kept-Pass-2026!'], dataDir)).code).toBe(0);

      const file = path.join(folder, 'sealed.ums');
      expect(await cli(['backup', '--out', file], dataDir, {})).toEqual({
        code: 1,
        output: BACKUP_MESSAGES.passphraseMissing,
      });
      await expect(fs.stat(file)).rejects.toThrow();
      const written = await cli(['backup', '--out', file], dataDir);
      expect(written.output).toMatch(
        /^Backup written to .*sealed\.ums: \d+ tables, \d+ rows \(database schema \d+\)\.$/,
      );
      expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
      expect((await fs.readFile(file)).includes(email)).toBe(false);

      // The account added after the backup tells whether a refused restore changed anything.
      const later = `later-${randomBytes(4).toString('hex')}@example.com`;
      expect((await cli(['users', 'add', '--email', later, '--password', 'Later-Pass-2026!'], dataDir)).code).toBe(0);
      const accounts = async () => (await cli(['users', 'list'], dataDir)).output;
      expect(await accounts()).toContain(later);

      expect(await cli(['restore', '--in', file, '--replace'], dataDir, {})).toEqual({
        code: 1,
        output: BACKUP_MESSAGES.sealedNeedsPassphrase,
      });
      expect(
        await cli(['restore', '--in', file, '--replace'], dataDir, { BACKUP_PASSPHRASE: 'not the passphrase' }),
      ).toEqual({ code: 1, output: BACKUP_MESSAGES.wrongPassphrase });
      const changed = path.join(folder, 'changed.ums');
      const bytes = await fs.readFile(file);
      bytes[bytes.length - 40]! ^= 0x01;
      await fs.writeFile(changed, bytes);
      expect(await cli(['restore', '--in', changed, '--replace'], dataDir)).toEqual({
        code: 1,
        output: BACKUP_MESSAGES.damaged,
      });
      expect(await accounts()).toContain(later);

      const restored = await cli(['restore', '--in', file, '--replace'], dataDir);
      expect(restored.code).toBe(0);
      expect(restored.output).toMatch(/^Restored .*sealed\.ums: \d+ tables, \d+ rows, taken /);
      const after = await accounts();
      expect(after).toContain(email);
      expect(after).not.toContain(later);

      const open = path.join(folder, 'open');
      await fs.mkdir(open);
      await fs.chmod(open, 0o777);
      expect(await cli(['backup', '--out', path.join(open, 'backup.ums')], dataDir)).toEqual({
        code: 1,
        output: BACKUP_MESSAGES.folderWritableByOthers(open, 0o777),
      });
      expect(await fs.readdir(open)).toEqual([]);
    },
  );

  it('refuses a BACKUP_PASSPHRASE shorter than 12 characters without echoing it', async () => {
    const dataDir = await fs.mkdtemp(path.join(folder, 'short-'));
    const result = await cli(['backup', '--out', path.join(folder, 'short.ums')], dataDir, {
      BACKUP_PASSPHRASE: 'short-one',
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain('BACKUP_PASSPHRASE: must be at least 12 characters');
    expect(result.output).not.toContain('short-one');
  });
});
