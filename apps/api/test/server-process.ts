import { prepareServer } from '@ums/testkit/server-process';
import { whenDone } from './when-done.js';

/**
 * The real server as its own process (from the sources through tsx) on a throw-away embedded PostgreSQL.
 * Everything it leaves behind is stopped and removed after the file's tests.
 */
export async function serverProcess(env: Record<string, string> = {}) {
  const server = await prepareServer({ entry: 'sources', env });
  whenDone(() => server.cleanup());
  return server;
}
