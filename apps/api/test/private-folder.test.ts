import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterDir, SHARED_ROOT } from '../src/db/embedded.js';
import { freePort } from '../src/net.js';
import { bundledEntry, exited } from '@ums/testkit/server-process';
import { spawn } from 'node:child_process';
import { waitFor } from './wait-for.js';
import { SOURCES } from './server-process.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const asRoot = process.getuid?.() === 0;

describe('npm start from a folder only its owner can open', () => {
  // PostgreSQL refuses to run as root: the server runs it as the user postgres, who cannot open such a folder.
  it.runIf(asRoot)(
    'starts as root, with PostgreSQL and its files where the user postgres can reach them',
    { timeout: 180_000 },
    async () => {
      const home = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-private-'));
      await fs.chmod(home, 0o700);
      const project = path.join(home, 'ums');
      await fs.mkdir(project);
      // The checkout, hard-linked (the same files, in folders of the private one), as a clone there would be.
      for (const entry of ['package.json', 'node_modules', 'packages', 'apps']) {
        execFileSync('cp', ['-al', path.join(repo, entry), project]);
      }
      const dataDir = path.join(project, '.data');
      await fs.rm(path.join(project, 'apps/api/dist'), { recursive: true, force: true });
      const port = await freePort();
      let output = '';
      // This run's bundle of the sources, as the private copy holds it: its packages are the copy's.
      const bundle = path.join(project, path.relative(repo, SOURCES.bundle));
      const child = spawn(process.execPath, bundledEntry(bundle, 'server'), {
        cwd: path.join(project, 'apps/api'),
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const cluster = clusterDir(dataDir);
      const usersList = () =>
        execFileSync(process.execPath, [...bundledEntry(bundle, 'cli'), 'users', 'list'], {
          cwd: path.join(project, 'apps/api'),
          env: { ...process.env, DATA_DIR: dataDir },
          encoding: 'utf8',
        });
      let runtime: string | undefined;
      try {
        expect(cluster.startsWith(`${SHARED_ROOT}/clusters/`)).toBe(true);
        // Ready, or gone: a server that exited will never answer, and its output says why.
        const ready = await waitFor(
          () =>
            fetch(`http://127.0.0.1:${port}/api/ready`)
              .then((r) => r.ok)
              .catch(() => false),
          (answered) => answered || child.exitCode !== null,
          120_000,
        );
        expect(ready, output).toBe(true);
        runtime = /PostgreSQL runs from a copy in (\S+)/.exec(output)?.[1];
        expect(runtime?.startsWith(`${SHARED_ROOT}/postgres-runtime-`), output).toBe(true);
        expect(output).toContain(`the database files are in ${cluster}`);
        expect(output).toContain('UMS is running at');
        expect(existsSync(path.join(cluster, 'PG_VERSION'))).toBe(true);
        // The operator CLI finds the same database.
        expect(usersList()).toContain('member@example.com');
        child.kill('SIGTERM');
        expect(await exited(child)).toBe(0);

        // A copy whose links lead nowhere any more (its checkout was deleted and cloned again) is made afresh: the
        // CLI, starting the stopped PostgreSQL itself, still works.
        const link = path.join(runtime!, 'node_modules', 'pg');
        await fs.rm(link);
        await fs.symlink(path.join(home, 'deleted-checkout', 'node_modules', 'pg'), link);
        expect(usersList()).toContain('member@example.com');
        expect(existsSync(path.join(link, 'package.json'))).toBe(true);
      } finally {
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          await exited(child);
        }
        await fs.rm(cluster, { recursive: true, force: true });
        if (runtime) await fs.rm(runtime, { recursive: true, force: true });
        await fs.rm(home, { recursive: true, force: true });
      }
    },
  );
});
