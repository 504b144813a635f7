import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runningPostmaster } from '../src/db/embedded.js';

const apiRoot = path.resolve(import.meta.dirname, '..');
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-lifecycle-'));
await fs.chmod(dataDir, 0o755);
const port = await new Promise<number>((resolve) => {
  const server = net.createServer().listen(0, '127.0.0.1', () => {
    const address = server.address();
    server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
  });
});

function startServer(): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiRoot,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function waitReady(): Promise<Response> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/ready`);
      if (response.ok) return response;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

afterAll(async () => {
  const left = await runningPostmaster(path.join(dataDir, 'pg'));
  if (left) process.kill(left.pid, 'SIGINT');
  await new Promise((r) => setTimeout(r, 500));
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('server lifecycle with the embedded PostgreSQL', () => {
  it('recovers after being killed, and stops its PostgreSQL cleanly on SIGTERM', { timeout: 120_000 }, async () => {
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
    expect(second.output()).toContain(`Stopping PostgreSQL (pid ${orphan!.pid}) left running by an earlier run`);
    expect(second.output()).not.toContain('loading demo data');

    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
    expect(await runningPostmaster(path.join(dataDir, 'pg'))).toBeNull();
  });
});
