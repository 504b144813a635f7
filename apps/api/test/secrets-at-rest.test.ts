import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dpopKey } from '@ums/testkit/dpop';
import { browser, refresh, signIn } from '@ums/testkit/oidc-browser';
import { exited, prepareServer } from '@ums/testkit/server-process';
import { createDatabase } from '../src/db/client.js';
import { runningEmbeddedUrl } from '../src/db/embedded.js';
import { loadProviderKeys } from '../src/identity/oidc-keys.js';
import { createKeyService } from '../src/secrets/key-service.js';
import { loadSecretsKey } from '../src/secrets/secrets-key.js';
import { postgresDataKeyStore } from '../src/secrets/secrets.js';
import { apiCaller } from './oidc-client.js';
import { waitFor } from './wait-for.js';
import { SOURCES, cliArgs } from './server-process.js';

// Issue 33: whoever reads the database, the data folder or a backup finds no key or credential that works.

const run = promisify(execFile);
const apiRoot = path.resolve(import.meta.dirname, '..');
const MEMBER_EMAIL = 'member@example.com';
const MEMBER_PASSWORD = 'AtRest-Member-2026!';
const PASSPHRASE = 'at rest test passphrase';
const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-at-rest-'));
await fs.chmod(folder, 0o700);
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

const server = await prepareServer({
  entry: SOURCES,
  env: { DEMO_MEMBER_PASSWORD: MEMBER_PASSWORD, DEMO_ADMIN_PASSWORD: 'AtRest-Admin-2026!' },
});
let running = server.start();
await server.waitReady();
afterAll(async () => {
  running.child.kill('SIGTERM');
  await exited(running.child);
  await server.cleanup();
});
const keyFile = path.join(server.dataDir, 'secrets.key');

/** The operator CLI on the server's data directory (sharing its embedded PostgreSQL): exit code and output. */
async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArgs(...args), {
      cwd: apiRoot,
      env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn', BACKUP_PASSPHRASE: PASSPHRASE },
    });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

/** Every row of every table of the database as text, as a dump would show it. */
async function databaseText(client: pg.Client): Promise<string> {
  const { rows: tables } = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
     where schemaname in ('public', 'drizzle') order by 1`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await client.query<{ row: string }>(`select t::text as row from ${name} t`);
    parts.push(...rows.map((r) => `${name}: ${r.row}`));
  }
  return parts.join('\n');
}

/** The bytes of every file under a folder, but the folders named (each file apart, so a match names its file). */
async function filesUnder(root: string, skip: string[]): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (skip.some((s) => file === s || file.startsWith(`${s}${path.sep}`))) continue;
    found.set(file, await fs.readFile(file).catch(() => Buffer.alloc(0)));
  }
  return found;
}

const holding = (files: Map<string, Buffer>, needle: string) =>
  [...files].filter(([, bytes]) => bytes.includes(needle)).map(([file]) => file);

describe('secrets at rest on a fresh install', () => {
  it('the first start creates DATA_DIR/secrets.key with mode 0600 and says so', async () => {
    expect(running.output()).toContain(`Secrets key: created ${keyFile} (mode 0600).`);
    expect((await fs.stat(keyFile)).mode & 0o777).toBe(0o600);
  });

  it(
    'the database, the data folder and a backup hold no private key, refresh token, session id, reset or email change link, authenticator key or member email in readable form',
    { timeout: 120_000 },
    async () => {
      // A member signs in (a refresh token and a provider session), sets up an authenticator app and asks for a
      // password reset link.
      const go = browser();
      const memberKey = await dpopKey();
      const tokens = await signIn(server.base, MEMBER_EMAIL, MEMBER_PASSWORD, { go, dpop: memberKey });
      const sessionId = go.setCookies.map((c) => /^_session=([^;]+)/.exec(c)?.[1]).find(Boolean)!;
      expect(sessionId).toBeTruthy();
      const call = apiCaller(server.base, tokens.access_token);
      const setup = await call('POST', '/api/security/totp/setup');
      const totpKey = (setup.body.data[0] as { secret: string }).secret;
      expect(totpKey).toMatch(/^[A-Z2-7]{32}$/);
      await fetch(`${server.base}/oidc/password/forgot`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: MEMBER_EMAIL }).toString(),
      });
      // And asks to move the account to another address (its confirmation link).
      const change = await call('POST', '/api/me/email-change', {
        newEmail: 'moved-at-rest@example.com',
        password: MEMBER_PASSWORD,
      });
      expect(change.status).toBe(202);
      const outbox = path.join(server.dataDir, 'outbox');
      /** The token of the first mailed link to this page of the provider. */
      const mailedToken = (page: RegExp) =>
        waitFor(
          async () => {
            for (const name of await fs.readdir(outbox).catch(() => [] as string[])) {
              if (!name.endsWith('.eml')) continue;
              const mail = await simpleParser(await fs.readFile(path.join(outbox, name)));
              const link = page.exec(mail.text ?? '')?.[1];
              if (link) return link;
            }
            return undefined;
          },
          (token) => token !== undefined,
        );
      const resetToken = await mailedToken(/\/oidc\/password\/reset\?token=(\S+)/);
      const changeToken = await mailedToken(/\/oidc\/email\/confirm\?token=(\S+)/);

      // The private key's own numbers, read the only way there is: with the secrets key.
      const url = (await runningEmbeddedUrl(server.dataDir))!;
      const { db, pool } = createDatabase(url);
      const { kek } = await loadSecretsKey({ secretsKey: undefined, secretsKeyFile: keyFile, generate: false });
      const keys = await loadProviderKeys(db, createKeyService({ keks: [kek], store: postgresDataKeyStore(db) }));
      await pool.end();
      // An EC key's private part is its d; an RSA key's are d, p, q, dp, dq and qi.
      const privateParts = keys.signing.flatMap((jwk) =>
        jwk.kty === 'EC' ? [jwk.d] : [jwk.d, jwk.p, jwk.q, jwk.dp, jwk.dq, jwk.qi],
      ) as string[];
      expect(privateParts.length).toBeGreaterThan(0);
      expect(privateParts.every((part) => typeof part === 'string' && part.length > 40)).toBe(true);
      const secrets = {
        'private key': privateParts,
        'cookie key': keys.cookies,
        'refresh token': [tokens.refresh_token],
        'session id': [sessionId],
        'reset link': [resetToken!],
        'email change link': [changeToken!],
        'authenticator key': [totpKey],
      };

      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const dump = await client
        .query('checkpoint')
        .then(() => databaseText(client))
        .finally(() => client.end());
      expect(dump).toContain('member@example.com');
      expect(dump).not.toMatch(/"d"\s*:|PRIVATE KEY/);
      for (const [what, values] of Object.entries(secrets)) {
        for (const value of values) expect(dump.includes(value), `${what} in the database`).toBe(false);
      }

      // The data folder: PostgreSQL's files (tables, indexes, the write-ahead log) and everything else, but the
      // secrets key itself and the delivered mail (the outbox folder stands in for the members' mailboxes).
      const files = await filesUnder(server.dataDir, [keyFile, outbox]);
      expect(files.size).toBeGreaterThan(100);
      for (const [what, values] of Object.entries(secrets)) {
        for (const value of values) expect(holding(files, value), `${what} in the data folder`).toEqual([]);
      }

      // A backup, written while the server serves.
      const file = path.join(folder, 'at-rest.ums');
      const written = await cli(['backup', '--out', file]);
      expect(written.code, written.output).toBe(0);
      const backup = new Map([[file, await fs.readFile(file)]]);
      for (const value of [MEMBER_EMAIL, ...Object.values(secrets).flat()]) {
        expect(holding(backup, value), 'in the backup').toEqual([]);
      }
    },
  );

  it(
    'cli secrets rotate rewraps every data key under a new key while the server serves; the server goes on, restarts with the new key, and will not start with the old one alone',
    { timeout: 120_000 },
    async () => {
      const dpop = await dpopKey();
      const before = await signIn(server.base, MEMBER_EMAIL, MEMBER_PASSWORD, { dpop });
      const oldKey = (await fs.readFile(keyFile, 'utf8')).trim();

      const rotated = await cli(['secrets', 'rotate']);
      expect(rotated.code, rotated.output).toBe(0);
      const lines = (await fs.readFile(keyFile, 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe(oldKey);
      expect(lines[0]).not.toBe(oldKey);
      const { kek: newKek } = await loadSecretsKey({ secretsKey: undefined, secretsKeyFile: keyFile, generate: false });
      expect(rotated.output).toContain(`now wrapped under key ${newKek.id}.`);
      expect((await fs.stat(keyFile)).mode & 0o777).toBe(0o600);

      const client = new pg.Client({ connectionString: (await runningEmbeddedUrl(server.dataDir))! });
      await client.connect();
      const { rows } = await client
        .query<{ kek_id: string }>('select distinct kek_id from data_keys')
        .finally(() => client.end());
      expect(rows.map((r) => r.kek_id)).toEqual([newKek.id]);

      // The running server goes on: a refresh (its session's sealed id) and a new sign-in.
      expect((await refresh(server.base, before.refresh_token, dpop)).status).toBe(200);
      await signIn(server.base, MEMBER_EMAIL, MEMBER_PASSWORD, { dpop: await dpopKey() });

      // Restarted, it opens everything with the new key.
      running.child.kill('SIGTERM');
      await exited(running.child);
      running = server.start();
      await server.waitReady();
      await signIn(server.base, MEMBER_EMAIL, MEMBER_PASSWORD, { dpop: await dpopKey() });
      running.child.kill('SIGTERM');
      await exited(running.child);

      // With only the old key, nothing stored opens any more: the start says why in one sentence.
      await fs.writeFile(keyFile, `${oldKey}\n`, { mode: 0o600 });
      const refused = server.start();
      const code = await exited(refused.child);
      expect(code).not.toBe(0);
      expect(refused.output()).toContain(
        "The stored secrets are sealed under another secrets key than this server's (SECRETS_KEY, SECRETS_KEY_PREVIOUS or the key file): start it with the key this database was set up with.",
      );
      await fs.writeFile(keyFile, `${lines.join('\n')}\n`, { mode: 0o600 });
      running = server.start();
      await server.waitReady();
    },
  );
});
