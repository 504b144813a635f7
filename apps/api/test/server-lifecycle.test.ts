import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runningPostmaster } from '../src/db/embedded.js';
import { exited } from '@ums/testkit/server-process';
import { serverProcess } from './server-process.js';

const server = await serverProcess();
const { dataDir } = server;
const startServer = () => server.start();
const waitReady = () => server.waitReady();

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
});
