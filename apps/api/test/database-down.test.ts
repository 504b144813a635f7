import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/env.js';
import { createDatabase } from '../src/db/client.js';
import { paths } from '../src/runtime.js';
import { ADMIN, provingPossession, testKeys, testSecrets } from './helper.js';

// Nothing listens on port 9: the database is unreachable from the start.
const { db, pool } = createDatabase('postgres://nobody:nothing@127.0.0.1:9/ums');
const keys = await testKeys();
const config = loadConfig({}, { catalogFile: paths.catalogFile });
const app = provingPossession(
  await buildApp({ config, db, secrets: testSecrets(db), keys: keys.keys, logger: false }),
  keys.dpop,
  config.publicUrl,
);
afterAll(async () => {
  await app.close();
  await pool.end();
});

describe('database unreachable', () => {
  it('answers 503 with a clear message, and /api/ready says not ready', async () => {
    const response = await app.inject({
      url: '/api/membership',
      headers: { authorization: `DPoP ${await keys.token(ADMIN)}` },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      isError: true,
      message: 'The database is unavailable. Please try again shortly.',
      data: [],
      requestId: response.headers['x-request-id'],
    });
    const ready = await app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'not ready', database: 'unreachable' });
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });
});
