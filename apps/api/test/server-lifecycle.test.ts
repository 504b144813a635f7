import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runningEmbeddedUrl, runningPostmaster } from '../src/db/embedded.js';
import { exited } from '@ums/testkit/server-process';
import { serverProcess } from './server-process.js';
import { waitFor } from './wait-for.js';

const server = await serverProcess();
const { dataDir } = server;
const startServer = () => server.start();
const waitReady = () => server.waitReady();

/** Starts a server and kills it with SIGKILL once it is ready: its PostgreSQL is left running on the data folder. */
async function startAndKill() {
  const first = startServer();
  await waitReady();
  first.child.kill('SIGKILL');
  await exited(first.child);
}

describe('server lifecycle with the embedded PostgreSQL', () => {
  it(
    'takes over the PostgreSQL a killed server left running, and stops it cleanly on SIGTERM',
    { timeout: 120_000 },
    async () => {
      const first = startServer();
      await waitReady();
      expect(first.output()).toContain('Empty embedded database: loading demo data');
      const orphan = await runningPostmaster(path.join(dataDir, 'pg'));
      expect(orphan).not.toBeNull();

      first.child.kill('SIGKILL');
      await exited(first.child);
      // The killed server's PostgreSQL is still running on the data directory.
      expect(await runningPostmaster(path.join(dataDir, 'pg'))).not.toBeNull();

      const second = startServer();
      await waitReady();
      expect(second.output()).toContain(`Taking over PostgreSQL (pid ${orphan!.pid}) left running by an earlier run`);
      expect(second.output()).not.toContain('loading demo data');
      // The same PostgreSQL serves on: it was neither stopped nor started again.
      expect(await runningPostmaster(path.join(dataDir, 'pg'))).toEqual(orphan);
      const health = await fetch(`${server.base}/api/health`);
      expect(health.status).toBe(200);

      second.child.kill('SIGTERM');
      expect(await exited(second.child)).toBe(0);
      expect(await runningPostmaster(path.join(dataDir, 'pg'))).toBeNull();
    },
  );

  it(
    'starts the PostgreSQL it took over again when that dies under it, and stops the new one on SIGTERM',
    { timeout: 120_000 },
    async () => {
      await startAndKill();
      const second = startServer();
      await waitReady();
      const adopted = await runningPostmaster(server.pgData);
      expect(second.output()).toContain(`Taking over PostgreSQL (pid ${adopted!.pid})`);

      process.kill(adopted!.pid, 'SIGKILL');
      const again = await waitFor(
        async () => (await fetch(`${server.base}/api/health`).catch(() => null))?.status,
        (status) => status === 200 && second.output().includes('The embedded PostgreSQL is running again'),
        60_000,
      );
      expect(again).toBe(200);
      const replacement = await runningPostmaster(server.pgData);
      expect(replacement!.pid).not.toBe(adopted!.pid);

      second.child.kill('SIGTERM');
      expect(await exited(second.child)).toBe(0);
      expect(await runningPostmaster(server.pgData)).toBeNull();
    },
  );

  it(
    'stops and starts again a PostgreSQL left running that does not serve the product’s database, saying why',
    { timeout: 120_000 },
    async () => {
      await startAndKill();
      const orphan = await runningPostmaster(server.pgData);
      // The product's database is renamed under the orphan: it answers, but not for the product.
      const superuser = new URL((await runningEmbeddedUrl(dataDir))!);
      superuser.pathname = '/postgres';
      const renamed = await waitFor(
        async () => {
          const client = new pg.Client({ connectionString: superuser.toString() });
          try {
            await client.connect();
            await client.query('alter database ums rename to ums_elsewhere');
            return true;
          } catch {
            return false; // the killed server's connections are still closing
          } finally {
            await client.end().catch(() => undefined);
          }
        },
        (done) => done,
        30_000,
      );
      expect(renamed).toBe(true);

      const second = startServer();
      await waitReady();
      expect(second.output()).toMatch(
        new RegExp(`Stopping PostgreSQL \\(pid ${orphan!.pid}\\) left running by an earlier run: 3D000: `),
      );
      expect((await runningPostmaster(server.pgData))!.pid).not.toBe(orphan!.pid);
      second.child.kill('SIGTERM');
      expect(await exited(second.child)).toBe(0);
    },
  );
});
