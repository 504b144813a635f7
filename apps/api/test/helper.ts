import { randomBytes } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import pg from 'pg';
import { dpopKey, type DpopKey } from '@ums/testkit/dpop';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Response } from 'light-my-request';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { checkedApp } from './answer-contracts.js';
import { loadConfig } from '../src/config/env.js';
import { createDatabase, type Database } from '../src/db/client.js';
import { createOperatorGroups } from '../src/modules/admin/members.js';
import { paths } from '../src/runtime.js';
import { createKeyService, parseKeyEncryptionKey, type KeyService } from '../src/secrets/key-service.js';
import { postgresDataKeyStore } from '../src/secrets/secrets.js';
import { whenDone } from './when-done.js';

export const ISSUER = 'http://localhost:8080/oidc';
export const AUDIENCE = 'http://localhost:8080/api';

interface Connection {
  db: Database;
  pool: pg.Pool;
  url: string;
}

/**
 * A database of its own for one test file, cloned from the migrated template: `db`, `pool` and `url` connect as its
 * owner (fixtures, and looking behind the app's back), `appRole` as the application role a server uses (decision 025).
 */
export async function testDatabase(): Promise<Connection & { appRole: Connection }> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `ums_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('templateDatabase')}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const { db, pool } = createDatabase(url.toString());
  const role = inject('appRole');
  const appUrl = new URL(url);
  if (role) {
    appUrl.username = encodeURIComponent(role.user);
    appUrl.password = encodeURIComponent(role.password);
  }
  const app = role ? { ...createDatabase(appUrl.toString()), url: appUrl.toString() } : null;
  whenDone(async () => {
    // A test may have ended a pool itself (to show what a closed connection does).
    for (const open of [app?.pool, pool]) if (open && !open.ended) await open.end();
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  });
  return { db, pool, url: url.toString(), appRole: app ?? { db, pool, url: url.toString() } };
}

/** A server process's settings for a test database, as production's should be: it serves as the application role. */
export function serverDatabaseEnv(database: Connection & { appRole: Connection }) {
  return { DATABASE_URL: database.appRole.url, DATABASE_OWNER_URL: database.url };
}

/** The tests' key-encryption key: one for all, so every app on a test database opens what another sealed. */
export const TEST_SECRETS_KEY = parseKeyEncryptionKey(Buffer.alloc(32, 0x5e).toString('hex'))!;

/** The key service over a test database's data_keys, as a server on it would have. */
export function testSecrets(db: Database): KeyService {
  return createKeyService({ keks: [TEST_SECRETS_KEY], store: postgresDataKeyStore(db) });
}

/**
 * The configuration a start with these variables makes, with the tests' secrets key: nothing a test reads or runs
 * creates a key file in the checkout.
 */
export const testConfig = (env: Record<string, string> = {}) =>
  loadConfig({ SECRETS_KEY: TEST_SECRETS_KEY.key.toString('hex'), ...env }, { catalogFile: paths.catalogFile });

/** An operator's `users grant` and `users revoke` on a test database, as the CLI makes them (audited, mailed). */
export function operatorGroups(db: Database) {
  return createOperatorGroups({ db, config: testConfig(), secrets: testSecrets(db) });
}

/**
 * A signing key set standing in for the identity provider's. Its tokens are the web client's, so they are bound with
 * DPoP to `dpop`, the browser's key (a test passes `cnf: undefined` to make an unbound one, which the API refuses).
 */
export async function testKeys() {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const dpop = await dpopKey();
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const other = await generateKeyPair('RS256', { extractable: true });
  return {
    jwks: { keys: [jwk] },
    keys: createLocalJWKSet({ keys: [jwk] }),
    publicKey,
    dpop,
    /** Signs an access token; override any claim or header to make a bad one. */
    async token(
      claims: Record<string, unknown> & { sub: string },
      options: {
        typ?: string;
        issuer?: string;
        audience?: string;
        expiresIn?: string | number;
        foreignKey?: boolean;
      } = {},
    ) {
      // Signed in just now (auth_time), as a token fresh from a sign-in: sensitive actions accept it.
      const signedIn = { client_id: 'ums-web', auth_time: Math.floor(Date.now() / 1000), cnf: { jkt: dpop.jkt } };
      return new SignJWT({ ...signedIn, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: options.typ ?? 'at+jwt' })
        .setIssuer(options.issuer ?? ISSUER)
        .setAudience(options.audience ?? AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '10m')
        .sign(options.foreignKey ? other.privateKey : privateKey);
    },
  };
}

export type TestKeys = Awaited<ReturnType<typeof testKeys>>;

export const MEMBER = { sub: 'member-1', email: 'member@example.com', groups: [] as string[] };
export const OTHER_MEMBER = { sub: 'member-2', email: 'other@example.com', groups: [] as string[] };
export const ADMIN = { sub: 'admin-1', email: 'admin@example.com', groups: ['Admin'] };
/** The console's least-privilege roles (README, "Console roles"). */
export const SUPPORT = { sub: 'support-1', email: 'support@example.com', groups: ['Support'] };
export const CATALOG = { sub: 'catalog-1', email: 'catalog@example.com', groups: ['Catalog'] };

/**
 * The API on a database, trusting the test key set's tokens, with the tests' secrets key; no provider. Its `inject`
 * does what the web app's client does for every call: a request sent with `authorization: DPoP <token>` and no proof
 * gets a fresh proof of the key set's DPoP key for its method and address.
 */
export async function apiAppOn(db: Database, config: ReturnType<typeof loadConfig>, keys: TestKeys) {
  const app = await checkedApp({ config, db, secrets: testSecrets(db), keys: keys.keys, logger: false });
  return provingPossession(app, keys.dpop, config.publicUrl);
}

/** The app's `inject` adding a proof of `key` to each call sent as `DPoP <token>` (see apiAppOn). */
export function provingPossession(app: Awaited<ReturnType<typeof buildApp>>, key: DpopKey, publicUrl: string) {
  type Inject = (options: InjectOptions) => Promise<Response>;
  const inject = app.inject.bind(app) as Inject;
  const withProof = (options: InjectOptions): InjectOptions => {
    const headers: Record<string, string | string[] | number | undefined> = { ...options.headers };
    const presented = headers['authorization'];
    if (typeof options.url !== 'string' || typeof presented !== 'string' || !presented.startsWith('DPoP ')) {
      return options;
    }
    if (headers['dpop'] !== undefined) return options;
    const address = `${new URL(publicUrl).origin}${options.url.split('?')[0]}`;
    headers['dpop'] = key.proof(options.method ?? 'GET', address, presented.slice('DPoP '.length));
    return { ...options, headers };
  };
  // Only a call with options gets a proof: the tests do not use the chained form (`app.inject().get(...)`).
  const proving: Inject = (options) => inject(withProof(options));
  return Object.assign(app, { inject: proving as FastifyInstance['inject'] });
}

/** The app as a server builds it, on the application role; `db` and `pool` stay the owner's for the test's own use. */
export async function testApp(options: { env?: Record<string, string> } = {}) {
  const database = await testDatabase();
  const keys = await testKeys();
  const config = loadConfig({ ...options.env }, { catalogFile: paths.catalogFile });
  const app = await apiAppOn(database.appRole.db, config, keys);
  await app.ready();
  whenDone(() => app.close());
  /** The authorization of one of the web app's calls for this person (`inject` adds the proof). */
  const signedIn = async (who: { sub: string; email: string; groups: string[] }) => ({
    authorization: `DPoP ${await keys.token(who)}`,
  });
  /** The same, with the proof for a call made over the network (`inject` adds its own). */
  const signedInOverNetwork = async (
    who: { sub: string; email: string; groups: string[] },
    method: string,
    path: string,
  ) => {
    const token = await keys.token(who);
    return {
      authorization: `DPoP ${token}`,
      dpop: keys.dpop.proof(method, `${new URL(config.publicUrl).origin}${path}`, token),
    };
  };
  return { app, ...database, keys, signedIn, signedInOverNetwork };
}
