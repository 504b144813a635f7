import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { clusterDir, runningPostmaster } from '@ums/api/embedded-postgres';
import { freePort } from '@ums/api/net';

// The real server as a process of its own, for the fault tests and the benchmark (no test runner here).

const apiRoot = path.dirname(createRequire(import.meta.url).resolve('@ums/api/package.json'));

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

/** `node` arguments that run one entry of a bundle of the sources (see `entry`), with its source maps. */
export const bundledEntry = (bundle: string, name: 'server' | 'cli') => [
  '--enable-source-maps',
  path.join(bundle, `${name}.js`),
];

export interface ServerProcessOptions {
  /**
   * The production build (benchmark, journeys), or a bundle of the sources made for a test run (the API tests'
   * global setup writes one: a start from it takes a second less than the sources through tsx).
   */
  entry: 'build' | { bundle: string };
  env?: Record<string, string>;
  /** Capture the output for assertions, or pass it through to this process's terminal. */
  output?: 'capture' | 'inherit';
  /** Node options for the server process (the benchmark's `--cpu-prof` when BENCH_CPU_PROFILE asks for it). */
  nodeArgs?: string[];
}

/** A loopback port, a throw-away data directory for the embedded PostgreSQL, and a way to (re)start the server. */
export async function prepareServer({ entry, env = {}, output = 'capture', nodeArgs = [] }: ServerProcessOptions) {
  // A server given another's DATA_DIR (a second process on one data folder) makes no folder of its own.
  const given = env['DATA_DIR'];
  const made = given ? undefined : await fs.mkdtemp(path.join(os.tmpdir(), 'ums-process-'));
  if (made) await fs.chmod(made, 0o755);
  const dataDir = given || made!;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const pgData = clusterDir(dataDir);
  const args = [...nodeArgs, ...(entry === 'build' ? ['dist/server.js'] : bundledEntry(entry.bundle, 'server'))];
  return {
    base,
    port,
    dataDir,
    pgData,
    start(): { child: ChildProcess; output: () => string } {
      let text = '';
      const child = spawn(process.execPath, args, {
        cwd: apiRoot,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: base,
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          ...env,
        },
        stdio: ['ignore', output === 'capture' ? 'pipe' : 'inherit', output === 'capture' ? 'pipe' : 'inherit'],
      });
      child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
      return { child, output: () => text };
    },
    async waitReady(timeoutMs = 60_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          if ((await fetch(`${base}/api/ready`)).ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error('server did not become ready');
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    /** Stops a PostgreSQL a killed server left behind and removes the data directory, if this made it. */
    async cleanup(): Promise<void> {
      if (!made) return;
      const left = await runningPostmaster(pgData);
      if (left) {
        process.kill(left.pid, 'SIGINT');
        // Until it has gone (a fast shutdown takes milliseconds; 10 s at most), so its files are not removed under it.
        const deadline = Date.now() + 10_000;
        while ((await runningPostmaster(pgData))?.pid === left.pid && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      await fs.rm(made, { recursive: true, force: true });
    },
  };
}
