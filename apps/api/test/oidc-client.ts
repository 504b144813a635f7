import { dpopHeaders } from '@ums/testkit/oidc-browser';
import { checkedApp } from './answer-contracts.js';
import { loadConfig } from '../src/config/env.js';
import { paths } from '../src/runtime.js';
import { testDatabase, testSecrets } from './helper.js';
import { freePort } from '../src/net.js';
import { whenDone } from './when-done.js';

/**
 * The product with its embedded provider on a loopback port (the issuer must match the address the test calls).
 * Each call gets its own database and its own in-memory sign-in counters; the app connects as the application role.
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
    db: database.appRole.db,
    secrets: testSecrets(database.appRole.db),
    embeddedIdentity: true,
    logger: false as const,
  };
  const state = { app: await checkedApp({ ...appOptions, ...options }) };
  await state.app.listen({ port, host: '127.0.0.1' });
  whenDone(() => state.app.close());
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
      state.app = await checkedApp({ ...appOptions, ...options });
      await state.app.listen({ port, host: '127.0.0.1' });
    },
  };
}

/**
 * A second API process of the same product on the same database (as behind a load balancer): the same public
 * address, its own port and memory. Answers its base address; closed after the file's tests.
 */
export async function anotherProcess(
  server: Awaited<ReturnType<typeof providerApp>>,
  env: Record<string, string> = {},
) {
  const port = await freePort();
  const app = await checkedApp({
    config: loadConfig(
      { PORT: String(port), PUBLIC_URL: server.base, HOST: '127.0.0.1', ...env },
      { catalogFile: paths.catalogFile },
    ),
    db: server.database.appRole.db,
    secrets: testSecrets(server.database.appRole.db),
    embeddedIdentity: true,
    logger: false,
  });
  await app.listen({ port, host: '127.0.0.1' });
  whenDone(() => app.close());
  return `http://127.0.0.1:${port}`;
}

/**
 * Calls the API as a signed-in browser does with a token from `signIn`: the DPoP scheme and a fresh proof of its key
 * naming the product's public address (`publicBase`), sent to `at` (one process of it). A POST always carries a JSON
 * body.
 */
export function apiCaller(publicBase: string, token: string) {
  return async (method: string, path: string, body?: unknown, at = publicBase) => {
    const response = await fetch(`${at}${path}`, {
      method,
      headers: { ...dpopHeaders(token, method, `${publicBase}${path}`), 'content-type': 'application/json' },
      ...(body === undefined && method !== 'POST' ? {} : { body: JSON.stringify(body ?? {}) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text ? JSON.parse(text) : {}) as { message: string; data: unknown[] },
    };
  };
}
