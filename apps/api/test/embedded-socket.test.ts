import { existsSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ensureAppRole } from '../src/db/app-role.js';
import { clusterDir, runningEmbeddedUrl, runningPostmaster, startEmbeddedPostgres } from '../src/db/embedded.js';
import { whenDone } from './when-done.js';

/** A new folder for a data folder, removed when the test is over. */
async function tempFolder() {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-socket-'));
  whenDone(() => fs.rm(folder, { recursive: true, force: true }));
  return folder;
}

async function start(folderName: string) {
  const parent = await tempFolder();
  await fs.chmod(parent, 0o755);
  const dataDir = path.join(parent, folderName);
  const embedded = await startEmbeddedPostgres({ dataDir });
  whenDone(() => embedded.stop());
  // The server's role, as a start makes it (runtime.ts).
  const owner = new pg.Pool({ connectionString: embedded.url });
  await ensureAppRole(owner, embedded.app.password, embedded.app.role);
  await owner.end();
  const pgData = clusterDir(dataDir);
  const running = (await runningPostmaster(pgData))!;
  return { embedded, pgData, running };
}

/** Who a connection made with `url` is, and where it comes from as PostgreSQL sees it: no address over a Unix socket. */
async function connectedAs(url: string): Promise<{ address: string | null; role: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ address: string | null; role: string }>(
      'select host(inet_client_addr()) as address, current_user as role',
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL is reached over a Unix socket in its own folder', () => {
  it(
    'connects the server and the owner through the socket in the cluster folder, which only its user can open, a space and a comma in its path included',
    { timeout: 120_000 },
    async () => {
      const { embedded, pgData, running } = await start('data, with a space');
      expect(running.socketDir).toBe(pgData);
      expect(existsSync(path.join(pgData, `.s.PGSQL.${running.port}`))).toBe(true);
      expect(statSync(pgData).mode & 0o077).toBe(0);

      expect(await connectedAs(embedded.app.url)).toEqual({ address: null, role: embedded.app.role });
      expect(await connectedAs(embedded.url)).toEqual({ address: null, role: 'postgres' });
      // Loopback TCP still answers, with the password, for tools that connect by port.
      const overTcp = `postgres://postgres:${new URL(embedded.url).password}@127.0.0.1:${running.port}/ums`;
      expect(await connectedAs(overTcp)).toEqual({ address: '127.0.0.1', role: 'postgres' });
    },
  );

  it(
    'listens on loopback TCP alone where the socket path would be too long for the system',
    { timeout: 120_000 },
    async () => {
      const { embedded, pgData, running } = await start('d'.repeat(100));
      expect(running.socketDir).toBeNull();
      expect(existsSync(path.join(pgData, `.s.PGSQL.${running.port}`))).toBe(false);
      expect(await connectedAs(embedded.app.url)).toEqual({ address: '127.0.0.1', role: embedded.app.role });
    },
  );

  it('connects over TCP to a PostgreSQL whose socket is in another folder, as an earlier version made it in the shared /tmp', async () => {
    const dataDir = await tempFolder();
    const pgData = clusterDir(dataDir);
    await fs.mkdir(pgData, { recursive: true });
    await fs.writeFile(path.join(dataDir, 'pg-password'), 'secret');
    // A pid file as PostgreSQL writes it (pid, folder, start time, port, first socket folder, ...), naming this live
    // process so that it counts as running.
    const pidFile = (socketFolder: string) =>
      fs.writeFile(
        path.join(pgData, 'postmaster.pid'),
        `${process.pid}\n${pgData}\n1700000000\n5433\n${socketFolder}\n`,
      );

    await pidFile('/tmp');
    const elsewhere = new URL((await runningEmbeddedUrl(dataDir))!);
    expect([elsewhere.host, elsewhere.searchParams.get('host')]).toEqual(['127.0.0.1:5433', null]);

    await pidFile(pgData);
    const own = new URL((await runningEmbeddedUrl(dataDir))!);
    expect([own.host, own.searchParams.get('host')]).toEqual(['127.0.0.1:5433', pgData]);
  });
});
