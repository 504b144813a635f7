import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { runningPostmaster } from '../src/db/embedded.js';
import { freePort } from './net.js';

export { freePort };

const apiRoot = path.resolve(import.meta.dirname, '..');

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

/**
 * The real server as its own process (from the sources through tsx) on a throw-away embedded PostgreSQL.
 * Everything it leaves behind is stopped and removed after the file's tests.
 */
export async function serverProcess(env: Record<string, string> = {}) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-process-'));
  await fs.chmod(dataDir, 0o755);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const pgData = path.join(dataDir, 'pg');
  afterAll(async () => {
    const left = await runningPostmaster(pgData);
    if (left) process.kill(left.pid, 'SIGINT');
    await new Promise((r) => setTimeout(r, 500));
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  return {
    base,
    port,
    dataDir,
    pgData,
    start(): { child: ChildProcess; output: () => string } {
      let output = '';
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
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
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      return { child, output: () => output };
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
  };
}
