import { dpopKey, type DpopKey } from '@ums/testkit/dpop';
import { openSignOut, signIn, signOut, signsInSilently } from '@ums/testkit/oidc-browser';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type JWK,
} from 'jose';
import { describe, expect, it } from 'vitest';
import { testConfig, testDatabase, testSecrets } from '../../test/helper.js';
import { anotherProcess, providerApp } from '../../test/oidc-client.js';
import { runCli } from '../cli/commands.js';
import { createAccountService } from './accounts.service.js';
import { postgresAdapterFactory, sealStoredCredentials } from './oidc-adapter.js';
import { loadProviderKeys, PROVIDER_KEYS_CONTEXT, rotateProviderKeys } from './oidc-keys.js';
import type { KeyService } from '../secrets/key-service.js';

const server = await providerApp();
const { base, database } = server;
const secrets = testSecrets(database.db);
const PASSWORD = 'Rotate-Keys-2026!';
await createAccountService({ db: database.db }).add({ email: 'rotate@example.com', password: PASSWORD });

// A second API process on the same database, started before the rotation: it holds the old keys in memory.
const olderBase = await anotherProcess(server);

/** The member's details from the process at `at`, with a DPoP proof naming the product's public address. */
async function statusAt(at: string, token: string, key: DpopKey) {
  const response = await fetch(`${at}/api/userdetails/`, {
    headers: { authorization: `DPoP ${token}`, dpop: key.proof('GET', `${base}/api/userdetails/`, token) },
  });
  return response.status;
}

describe('cli keys rotate', () => {
  it('a new key signs after a restart, the old one keeps verifying on every process, and a process that has not restarted accepts the new key', async () => {
    const key = await dpopKey();
    const before = await signIn(base, 'rotate@example.com', PASSWORD, { dpop: key });
    const oldKid = decodeProtectedHeader(before.access_token).kid;

    const out: string[] = [];
    const code = await runCli(['keys', 'rotate'], {
      config: testConfig(),
      openDatabase: async () => ({ ...database, embedded: false, sharedWithServer: false, close: async () => {} }),
      out: (line) => out.push(line),
      err: (line) => out.push(line),
    });
    expect(code).toBe(0);
    const stored = await loadProviderKeys(database.db, secrets);
    const newKid = stored.signing[0]!.kid!;
    expect(newKid).not.toBe(oldKid);
    expect(stored.signing.map((k) => k.kid)).toEqual([newKid, oldKid]);
    expect(out[0]).toBe(
      `New signing key ${newKid}: each server signs with it from its next start (restart them one by one); the previous key keeps verifying.`,
    );

    // Before its restart the process still signs with the old key; afterwards with the new one.
    expect(
      decodeProtectedHeader((await signIn(base, 'rotate@example.com', PASSWORD, { dpop: key })).access_token).kid,
    ).toBe(oldKid);
    await server.restart();
    const after = await signIn(base, 'rotate@example.com', PASSWORD, { dpop: key });
    expect(decodeProtectedHeader(after.access_token).kid).toBe(newKid);

    for (const at of [base, olderBase]) {
      expect(await statusAt(at, before.access_token, key), at).toBe(200);
      expect(await statusAt(at, after.access_token, key), at).toBe(200);
    }
  });

  it('drops a signing key once it stopped signing longer ago than a token lives, and keeps three cookie keys', async () => {
    const first = await loadProviderKeys(database.db, secrets);
    const later = new Date(Date.now() + 2 * 3600 * 1000);
    const rotation = await rotateProviderKeys(database.db, secrets, { keepRetiredSeconds: 3600, now: later });
    const kept = await loadProviderKeys(database.db, secrets);
    // The key retired by the first test is over an hour old "later"; the one that signed until now is kept.
    expect(rotation.dropped).toEqual([first.signing[1]!.kid]);
    expect(kept.signing.map((k) => k.kid)).toEqual([rotation.signingKid, first.signing[0]!.kid]);
    await rotateProviderKeys(database.db, secrets, { keepRetiredSeconds: 3600, now: later });
    expect((await loadProviderKeys(database.db, secrets)).cookies).toHaveLength(3);
  });
});

describe('keys and credentials stored in the clear by an older version', () => {
  it('are sealed (keys) and hashed (credential ids) at start, and still work afterwards', async () => {
    const db = await testDatabase();
    const keys = testSecrets(db.db);
    const plain = { signing: [{ kty: 'RSA', kid: 'legacy', d: 'private-part' }], cookies: ['legacy-cookie-key'] };
    await db.pool.query(`insert into oidc_keys (kind, value) values ('provider', $1)`, [JSON.stringify(plain)]);
    await db.pool.query(
      `insert into oidc_payloads (model, id, payload, uid) values
         ('RefreshToken', 'legacy-refresh-token', '{"jti": "legacy-refresh-token", "accountId": "a1"}', null),
         ('Session', 'legacy-session-id', '{"jti": "legacy-session-id", "uid": "u1", "accountId": "a1"}', 'u1')`,
    );

    // Sealed with an ES256 key added to sign (the older one is an RSA key: see the describe below).
    const loaded = await loadProviderKeys(db.db, keys);
    expect(loaded).toMatchObject({ signing: [{ alg: 'ES256' }, plain.signing[0]], cookies: plain.cookies });
    expect(await sealStoredCredentials(db.db, keys)).toBe(2);
    expect(await sealStoredCredentials(db.db, keys)).toBe(0);
    const { rows } = await db.pool.query<{ text: string }>(
      `select string_agg(t::text, ' ') as text from (select * from oidc_keys) t`,
    );
    expect(rows[0]!.text).not.toContain('private-part');
    const stored = await db.pool.query<{ text: string }>(
      `select string_agg(t::text, ' ') as text from oidc_payloads t`,
    );
    expect(stored.rows[0]!.text).not.toMatch(/legacy-refresh-token|legacy-session-id/);

    const { sessions } = testConfig();
    const Adapter = postgresAdapterFactory(db.db, keys, sessions);
    expect(await new Adapter('RefreshToken').find('legacy-refresh-token')).toMatchObject({
      jti: 'legacy-refresh-token',
      accountId: 'a1',
    });
    expect(await new Adapter('Session').findByUid('u1')).toMatchObject({ jti: 'legacy-session-id', accountId: 'a1' });
    expect(await loadProviderKeys(db.db, keys)).toEqual(loaded);
  });
});

/** The keys of the version before decision 043, sealed as it stored them: an RS256 key signs. */
async function olderKeys(secrets: KeyService) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signer = { ...(await exportJWK(privateKey)), kid: 'older-rs256', alg: 'RS256', use: 'sig' };
  const sealed = await secrets.seal(
    JSON.stringify({ signing: [signer], cookies: ['older-cookie-key'] }),
    PROVIDER_KEYS_CONTEXT,
  );
  return { privateKey, stored: JSON.stringify(sealed) };
}

/** What a published key may hold: its public half and what names it. */
const PUBLIC_MEMBERS = new Set(['kty', 'use', 'kid', 'alg', 'crv', 'x', 'y', 'n', 'e']);

describe('signing keys of an older version (RS256)', () => {
  it('get an ES256 key that signs both tokens from the next start, while a token the RS256 key signed keeps verifying on every process', async () => {
    const upgraded = await providerApp();
    const { privateKey, stored } = await olderKeys(testSecrets(upgraded.database.db));
    await upgraded.database.pool.query(`update oidc_keys set value = $1 where kind = 'provider'`, [stored]);
    await upgraded.restart();
    const other = await anotherProcess(upgraded);
    const keys = await loadProviderKeys(upgraded.database.db, testSecrets(upgraded.database.db));
    expect(keys.signing.map((key) => key.alg)).toEqual(['ES256', 'RS256']);
    expect(keys.signing[1]!.kid).toBe('older-rs256');

    await createAccountService({ db: upgraded.database.db }).add({ email: 'older@example.com', password: PASSWORD });
    const key = await dpopKey();
    const session = await signIn(upgraded.base, 'older@example.com', PASSWORD, { dpop: key });
    expect(decodeProtectedHeader(session.access_token)).toMatchObject({ alg: 'ES256', kid: keys.signing[0]!.kid });
    expect(decodeProtectedHeader(session.id_token)).toMatchObject({ alg: 'ES256', kid: keys.signing[0]!.kid });
    // Both verify with the keys the provider publishes, which still name the retired RSA key.
    const discovery = (await (await fetch(`${upgraded.base}/oidc/.well-known/openid-configuration`)).json()) as {
      jwks_uri: string;
    };
    const published = (await (await fetch(discovery.jwks_uri)).json()) as { keys: JWK[] };
    expect(published.keys.map((key) => [key.kid, key.alg])).toEqual([
      [keys.signing[0]!.kid, 'ES256'],
      ['older-rs256', 'RS256'],
    ]);
    expect(published.keys.flatMap(Object.keys).filter((member) => !PUBLIC_MEMBERS.has(member))).toEqual([]);
    for (const token of [session.id_token, session.access_token]) {
      await expect(jwtVerify(token, createLocalJWKSet(published), { algorithms: ['ES256'] })).resolves.toBeTruthy();
    }

    // The same access token as the older version signed it before the upgrade.
    const olderToken = await new SignJWT(decodeJwt(session.access_token))
      .setProtectedHeader({ alg: 'RS256', kid: 'older-rs256', typ: 'at+jwt' })
      .sign(privateKey);
    const strangerKey = (await generateKeyPair('RS256')).privateKey;
    const forged = await new SignJWT(decodeJwt(session.access_token))
      .setProtectedHeader({ alg: 'RS256', kid: 'older-rs256', typ: 'at+jwt' })
      .sign(strangerKey);
    const statusOf = async (at: string, token: string) =>
      (
        await fetch(`${at}/api/userdetails/`, {
          headers: {
            authorization: `DPoP ${token}`,
            dpop: key.proof('GET', `${upgraded.base}/api/userdetails/`, token),
          },
        })
      ).status;
    for (const at of [upgraded.base, other]) {
      expect(await statusOf(at, session.access_token), at).toBe(200);
      expect(await statusOf(at, olderToken), at).toBe(200);
      expect(await statusOf(at, forged), at).toBe(401);
    }
  });

  it('sign out with an ID token the RS256 key signed after asking the member, instead of stopping on an error', async () => {
    const upgraded = await providerApp();
    const { privateKey, stored } = await olderKeys(testSecrets(upgraded.database.db));
    await upgraded.database.pool.query(`update oidc_keys set value = $1 where kind = 'provider'`, [stored]);
    await upgraded.restart();
    await createAccountService({ db: upgraded.database.db }).add({ email: 'hint@example.com', password: PASSWORD });
    const session = await signIn(upgraded.base, 'hint@example.com', PASSWORD);
    // The ID token the browser kept from before the upgrade: the same claims, signed by the RSA key.
    const olderIdToken = await new SignJWT(decodeJwt(session.id_token))
      .setProtectedHeader({ alg: 'RS256', kid: 'older-rs256' })
      .sign(privateKey);

    expect((await openSignOut(upgraded.base, session.go, session.id_token)).html).toContain('Signing you out...');
    const asked = await openSignOut(upgraded.base, session.go, olderIdToken);
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('Do you want to sign out of your membership account?');
    const confirmed = await signOut(upgraded.base, session.go, olderIdToken);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${upgraded.base}/`);
    expect(await signsInSilently(upgraded.base, session.go)).toBe(false);
  });

  it('get one new key when processes start at once, and the RS256 key is dropped by a rotation once its tokens have expired', async () => {
    const db = await testDatabase();
    const secrets = testSecrets(db.db);
    await db.pool.query(`insert into oidc_keys (kind, value) values ('provider', $1)`, [
      (await olderKeys(secrets)).stored,
    ]);
    const loads = await Promise.all(Array.from({ length: 4 }, () => loadProviderKeys(db.db, testSecrets(db.db))));
    expect(new Set(loads.map((keys) => keys.signing[0]!.kid)).size).toBe(1);
    expect((await loadProviderKeys(db.db, testSecrets(db.db))).signing.map((key) => key.alg)).toEqual([
      'ES256',
      'RS256',
    ]);

    const later = new Date(Date.now() + 2 * 3600 * 1000);
    const rotation = await rotateProviderKeys(db.db, secrets, { keepRetiredSeconds: 3600, now: later });
    expect(rotation.dropped).toEqual(['older-rs256']);
    expect((await loadProviderKeys(db.db, secrets)).signing.map((key) => [key.kid, key.alg])).toEqual([
      [rotation.signingKid, 'ES256'],
      [loads[0]!.signing[0]!.kid, 'ES256'],
    ]);
  });
});
