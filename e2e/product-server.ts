import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { exited, prepareServer } from '@ums/testkit/server-process';
import { ADMIN, MEMBER } from './fixtures.js';

/**
 * The product (the build: API and web app) on a fresh embedded database of its own, with the demo accounts, for a
 * journey that needs settings the shared server must not have (a short step-up age, an MFA policy): the rest of the
 * suite never meets them, and only the spec that asks pays for the start.
 */
export async function startProductServer(env: Record<string, string>) {
  const server = await prepareServer({
    entry: 'build',
    env: { DEMO_ADMIN_PASSWORD: ADMIN.password, DEMO_MEMBER_PASSWORD: MEMBER.password, ...env },
  });
  const { child, output } = server.start();
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await exited(child);
    }
    await server.cleanup();
  };
  try {
    await server.waitReady(90_000);
  } catch (error) {
    await stop();
    throw new Error(`The journey's own server did not start:\n${output()}`, { cause: error });
  }
  return {
    base: server.base,
    /** The operator's CLI on this server's data. */
    cli: (...args: string[]) =>
      execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../scripts/cli.mjs'), ...args], {
        env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      }),
    stop,
  };
}
