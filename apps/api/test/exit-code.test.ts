import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('loading the embedded PostgreSQL module', () => {
  it("leaves a process's exit code alone (a failed test run must not end with 0)", async () => {
    const script = `await import('./src/db/embedded.ts'); process.exitCode = 3;`;
    const outcome = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '..'),
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).not.toContain('is not a function');
  });
});
