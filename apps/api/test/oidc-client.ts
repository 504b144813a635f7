import { afterAll } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/env.js';
import { paths } from '../src/runtime.js';
import { testDatabase, testSecrets } from './helper.js';
import { freePort } from '../src/net.js';

/**
 * The product with its embedded provider on a loopback port (the issuer must match the address the test calls).
 * Each call gets its own database and its own in-memory sign-in counters.
 */
export async function providerApp(env: Record<string, string> = {}, options: { deliverMail?: boolean } = {}) {
  const database = await testDatabase();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig(
    { PORT: String(port), PUBLIC_URL: base, HOST: '127.0.0.1', ...env },
    { catalogFile: paths.catalogFile },
  );
  const appOptions = {
    config,
    db: database.db,
    secrets: testSecrets(database.db),
    embeddedIdentity: true,
    logger: false as const,
  };
  const state = { app: await buildApp({ ...appOptions, ...options }) };
  await state.app.listen({ port, host: '127.0.0.1' });
  afterAll(() => state.app.close());
  return {
    base,
    port,
    config,
    database,
    state,
    redirect: `${base}/auth/callback`,
    /** Stops this instance and starts another on the same database and port (a restart). */
    async restart() {
      await state.app.close();
      state.app = await buildApp({ ...appOptions, ...options });
      await state.app.listen({ port, host: '127.0.0.1' });
    },
  };
}
