import { inject } from 'vitest';
import { bundledEntry, prepareServer } from '@ums/testkit/server-process';
import { whenDone } from './when-done.js';

/** The sources as this run bundled them (global-setup.ts), for starting the server as a process of its own. */
export const SOURCES = { bundle: inject('serverBundle') };

/** `node` arguments that run the CLI of this run's bundle with `args`. */
export const cliArgs = (...args: string[]) => [...bundledEntry(SOURCES.bundle, 'cli'), ...args];

/**
 * The real server as its own process (this run's bundle of the sources) on a throw-away embedded PostgreSQL.
 * Everything it leaves behind is stopped and removed after the file's tests.
 */
export async function serverProcess(env: Record<string, string> = {}) {
  const server = await prepareServer({ entry: SOURCES, env });
  whenDone(() => server.cleanup());
  return server;
}
