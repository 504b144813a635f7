import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { serverDatabaseEnv, TEST_SECRETS_KEY, testDatabase } from './helper.js';
import { exited, prepareServer } from '@ums/testkit/server-process';
import { SOURCES } from './server-process.js';

const database = await testDatabase();
const SECRETS_KEY = TEST_SECRETS_KEY.key.toString('hex');

/** Starts the real server with these settings and waits for it to stop: its exit code and what it printed. */
async function failedStart(env: Record<string, string>, prepared?: Awaited<ReturnType<typeof prepareServer>>) {
  const server = prepared ?? (await prepareServer({ entry: SOURCES, env }));
  const running = server.start();
  const code = await exited(running.child);
  if (!prepared) await server.cleanup();
  const lines = running
    .output()
    .split('\n')
    .filter((line) => line.trim() && !line.includes('oidc-provider WARNING'));
  return { code, lines };
}

/** One sentence, and nothing that looks like a stack trace. */
function expectOneSentence(result: { code: number | null; lines: string[] }, sentence: string) {
  expect(result.code).toBe(1);
  expect(result.lines).toEqual([sentence]);
}

describe('a start that cannot work says why in one sentence and exits with 1', () => {
  it('names an invalid setting', async () => {
    const result = await failedStart({ TRUST_PROXY: 'true', DATABASE_URL: database.url });
    expect(result.code).toBe(1);
    expect(result.lines.join('\n')).toMatch(/^Invalid configuration:\n {2}TRUST_PROXY: true would trust/);
    expect(result.lines.join('\n')).not.toMatch(/\n\s+at /);
  });

  it('names a port in use', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      // Both starts on one database share its secrets key, as the servers of one product do.
      const shared = { ...serverDatabaseEnv(database), SECRETS_KEY };
      const result = await failedStart({ PORT: String(port), ...shared });
      expectOneSentence(result, `Port ${port} is already in use: stop the other program or set PORT to a free port.`);
      const metrics = await failedStart({ METRICS_PORT: String(port), ...shared });
      expectOneSentence(
        metrics,
        `Port ${port} (METRICS_PORT) is already in use: stop the other program or set METRICS_PORT to a free port.`,
      );
    } finally {
      blocker.close();
    }
  });

  it('names a data directory that cannot be written', async () => {
    const result = await failedStart({ DATA_DIR: '/dev/null/ums' });
    expectOneSentence(
      result,
      'The data directory cannot be written (/dev/null/ums): set DATA_DIR to a folder this user can write, or fix its permissions.',
    );
  });

  it('names a DATA_DIR that is a file, not a folder', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-data-file-'));
    const file = path.join(folder, 'not-a-folder');
    await fs.writeFile(file, 'a regular file');
    try {
      const result = await failedStart({ DATA_DIR: file });
      expectOneSentence(
        result,
        `DATA_DIR names a file, not a folder (${file}): set DATA_DIR to a folder, or move that file away.`,
      );
      expect(await fs.readFile(file, 'utf8')).toBe('a regular file');
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });

  it('names a DATABASE_URL that cannot be reached, refuses the credentials, or names no database', async () => {
    const wrongPassword = new URL(database.url);
    wrongPassword.password = 'not-the-password';
    const missing = new URL(database.url);
    missing.pathname = '/no_such_database';
    const [unreachable, noSocket, refused, absent] = await Promise.all([
      failedStart({ DATABASE_URL: 'postgres://ums:secret@127.0.0.1:9/ums' }),
      // A Unix socket's folder where no PostgreSQL listens.
      failedStart({ DATABASE_URL: 'postgres://ums:secret@localhost:5432/ums?host=/no-such-socket-folder' }),
      failedStart({ DATABASE_URL: wrongPassword.toString() }),
      failedStart({ DATABASE_URL: missing.toString() }),
    ]);
    for (const result of [unreachable, noSocket]) {
      expectOneSentence(
        result,
        'The PostgreSQL server in DATABASE_URL cannot be reached: start it or correct the host and port in DATABASE_URL.',
      );
    }
    expectOneSentence(
      refused,
      'DATABASE_URL was refused by the PostgreSQL server (wrong user or password): correct the credentials in DATABASE_URL.',
    );
    expectOneSentence(
      absent,
      'The database named in DATABASE_URL does not exist: create it (createdb) or correct the name in DATABASE_URL.',
    );
  });

  it('names DATABASE_OWNER_URL when the owner is refused', async () => {
    const wrongPassword = new URL(database.url);
    wrongPassword.password = 'not-the-password';
    const result = await failedStart({ ...serverDatabaseEnv(database), DATABASE_OWNER_URL: wrongPassword.toString() });
    expectOneSentence(
      result,
      'DATABASE_OWNER_URL was refused by the PostgreSQL server (wrong user or password): correct the credentials in DATABASE_OWNER_URL.',
    );
  });

  it('refuses to share a data directory with a running server', { timeout: 90_000 }, async () => {
    const owner = await prepareServer({ entry: SOURCES });
    const running = owner.start();
    try {
      await owner.waitReady();
      const second = await prepareServer({ entry: SOURCES, env: { DATA_DIR: owner.dataDir } });
      const result = await failedStart({}, second);
      const pid = /pid (\d+)/.exec(result.lines[0] ?? '')?.[1];
      expectOneSentence(
        result,
        `Another UMS server (pid ${pid}) is already running on the data directory ${owner.dataDir}: stop it, or give this server its own DATA_DIR.`,
      );
      expect(Number(pid)).toBeGreaterThan(0);
      // The first server is untouched.
      expect((await fetch(`${owner.base}/api/ready`)).status).toBe(200);
    } finally {
      running.child.kill('SIGTERM');
      await exited(running.child);
      await owner.cleanup();
    }
  });
});
