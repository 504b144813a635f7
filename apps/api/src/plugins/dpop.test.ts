import { createHash, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dpopKey, type DpopKey } from '@ums/testkit/dpop';
import { attemptSignIn, browser, finishSignIn, pkce, refresh, signIn } from '@ums/testkit/oidc-browser';
import { providerApp } from '../../test/oidc-client.js';
import { createAccountService } from '../identity/accounts.service.js';
import { DPOP_REFUSED } from './auth.js';
import { DPOP_MAX_AGE_SECONDS, jwkThumbprint, postgresProofLedger, type ProofStore, verifyDpopProof } from './dpop.js';

const PASSWORD = 'Bound-Pass-2026!';
const server = await providerApp();
const { base, database } = server;
const accounts = createAccountService({ db: database.db });

async function boundMember(key?: DpopKey) {
  const email = `dpop-${randomBytes(4).toString('hex')}@example.com`;
  await accounts.add({ email, password: PASSWORD });
  const dpop = key ?? (await dpopKey());
  return { email, dpop, tokens: await signIn(base, email, PASSWORD, { dpop }) };
}

const USER_DETAILS = `${base}/api/userdetails/`;
const call = (url: string, headers: Record<string, string>, method = 'GET') =>
  fetch(url, { method, headers: { 'content-type': 'application/json', ...headers } });
const withProof = async (dpop: DpopKey, token: string, method = 'GET', url = USER_DETAILS) => ({
  authorization: `DPoP ${token}`,
  dpop: await dpop.proof(method, url, token),
});

/** The status, the envelope's message and the WWW-Authenticate challenge of a refused call. */
async function refusal(response: Response) {
  const body = (await response.json()) as { isError: boolean; message: string };
  return { status: response.status, message: body.message, challenge: response.headers.get('www-authenticate') };
}
const REFUSED = {
  status: 401,
  message: DPOP_REFUSED,
  challenge: expect.stringMatching(/^DPoP error="invalid_dpop_proof"/),
};

describe('DPoP-bound tokens (RFC 9449)', () => {
  it("are bound by the provider to the client's key (cnf.jkt) and accepted with a fresh proof of it", async () => {
    const { dpop, tokens } = await boundMember();
    expect(decodeJwt(tokens.access_token)['cnf']).toEqual({ jkt: dpop.jkt });
    const response = await call(USER_DETAILS, await withProof(dpop, tokens.access_token));
    expect(response.status).toBe(200);
    // Each request proves again, with a proof of its own.
    expect((await call(USER_DETAILS, await withProof(dpop, tokens.access_token))).status).toBe(200);
  });

  it('refuses a bound token without a proof, or sent as a plain bearer token', async () => {
    const { tokens } = await boundMember();
    expect(await refusal(await call(USER_DETAILS, { authorization: `DPoP ${tokens.access_token}` }))).toEqual(REFUSED);
    expect(await refusal(await call(USER_DETAILS, { authorization: `Bearer ${tokens.access_token}` }))).toEqual(
      REFUSED,
    );
  });

  it('refuses a proof replayed, even for the same request', async () => {
    const { dpop, tokens } = await boundMember();
    const headers = await withProof(dpop, tokens.access_token);
    expect((await call(USER_DETAILS, headers)).status).toBe(200);
    expect(await refusal(await call(USER_DETAILS, headers))).toEqual(REFUSED);
  });

  it('refuses a replayed write before it changes anything', async () => {
    const { dpop, tokens } = await boundMember();
    const url = `${base}/api/userdetails/internal`;
    const headers = await withProof(dpop, tokens.access_token, 'POST', url);
    const save = (firstName: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ firstName, lastName: '', email: '', city: 'Austin' }),
      });
    expect((await save('First')).status).toBe(200);
    expect(await refusal(await save('Replayed'))).toEqual(REFUSED);
    const details = await call(USER_DETAILS, await withProof(dpop, tokens.access_token));
    expect(((await details.json()) as { data: { firstName: string }[] }).data[0]!.firstName).toBe('First');
  });

  it('runs a GET that changes state (the catalog refresh) once for concurrent replays of one proof', async () => {
    const email = `dpop-admin-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.add({ email, password: PASSWORD, admin: true });
    const dpop = await dpopKey();
    const tokens = await signIn(base, email, PASSWORD, { dpop });
    const url = `${base}/api/product/refresh`;
    const refreshes = async () =>
      Number(
        (
          await database.pool.query(
            `select count(*) from audit_entries where action = 'catalog-refreshed' and actor_email = $1`,
            [email],
          )
        ).rows[0].count,
      );
    const headers = await withProof(dpop, tokens.access_token, 'GET', url);
    const statuses = await Promise.all(Array.from({ length: 5 }, () => call(url, headers).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(4);
    expect(await refreshes()).toBe(1);
  });

  it('refuses concurrent replays of one proof: exactly one of them is answered', async () => {
    const { dpop, tokens } = await boundMember();
    const headers = await withProof(dpop, tokens.access_token);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => call(USER_DETAILS, headers).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(9);
  });

  it('refuses a proof made for another address or another method', async () => {
    const { dpop, tokens } = await boundMember();
    const forSessions = await withProof(dpop, tokens.access_token, 'GET', `${base}/api/sessions`);
    expect(await refusal(await call(USER_DETAILS, forSessions))).toEqual(REFUSED);
    const otherHost = await withProof(
      dpop,
      tokens.access_token,
      'GET',
      USER_DETAILS.replace('127.0.0.1', 'evil.example'),
    );
    expect(await refusal(await call(USER_DETAILS, otherHost))).toEqual(REFUSED);
    const asDelete = await withProof(dpop, tokens.access_token, 'DELETE');
    expect(await refusal(await call(USER_DETAILS, asDelete))).toEqual(REFUSED);
    // The query string is not part of the proof's address.
    const paged = `${base}/api/activity`;
    const proof = await withProof(dpop, tokens.access_token, 'GET', paged);
    expect((await call(`${paged}?limit=5`, proof)).status).toBe(200);
  });

  it('accepts a proof whose address is written differently but is the same once normalised', async () => {
    const { dpop, tokens } = await boundMember();
    for (const written of [
      USER_DETAILS.replace('http://', 'HTTP://'),
      USER_DETAILS.replace('/api/userdetails/', '/api/sessions/../userdetails/'),
    ]) {
      const proof = await withProof(dpop, tokens.access_token, 'GET', written);
      expect((await call(USER_DETAILS, proof)).status, written).toBe(200);
    }
  });

  it('refuses a proof signed by another key, even a valid proof of that key', async () => {
    const { tokens } = await boundMember();
    const thief = await dpopKey();
    expect(await refusal(await call(USER_DETAILS, await withProof(thief, tokens.access_token)))).toEqual(REFUSED);
  });

  it('refuses a stale proof, one from the future, and one for another access token', async () => {
    const { dpop, tokens } = await boundMember();
    const now = Math.floor(Date.now() / 1000);
    const token = tokens.access_token;
    for (const claims of [
      { iat: now - DPOP_MAX_AGE_SECONDS - 5 },
      { iat: now + 60 },
      { ath: 'A'.repeat(43) },
      { ath: null },
    ]) {
      const proof = await dpop.proof('GET', USER_DETAILS, token, claims);
      expect(
        await refusal(await call(USER_DETAILS, { authorization: `DPoP ${token}`, dpop: proof })),
        JSON.stringify(claims),
      ).toEqual(REFUSED);
    }
  });

  it('refuses a malformed proof and one whose signature does not verify', async () => {
    const { dpop, tokens } = await boundMember();
    const token = tokens.access_token;
    for (const proof of ['not-a-jwt', 'a.b.c', `${(await dpop.proof('GET', USER_DETAILS, token)).slice(0, -4)}AAAA`]) {
      expect(await refusal(await call(USER_DETAILS, { authorization: `DPoP ${token}`, dpop: proof }))).toEqual(REFUSED);
    }
  });

  it('binds the refresh token too: renewing needs a proof of the same key, and the new token is bound to it', async () => {
    const { dpop, tokens } = await boundMember();
    expect((await refresh(base, tokens.refresh_token, await dpopKey())).status).toBe(400);
    const { tokens: second, dpop: sameKey } = await boundMember(dpop);
    const renewed = await refresh(base, second.refresh_token, sameKey);
    expect(renewed.status).toBe(200);
    expect(decodeJwt(renewed.body.access_token!)['cnf']).toEqual({ jkt: dpop.jkt });
  });

  it('are the only tokens the web client gets: a token request without a proof is refused', async () => {
    const email = `unbound-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.add({ email, password: PASSWORD });
    const go = browser();
    const { verifier, challenge } = pkce();
    const signedIn = await attemptSignIn(base, email, PASSWORD, {}, go, challenge);
    await expect(finishSignIn(base, go, signedIn, verifier, email, null)).rejects.toThrow(/"error":"invalid_grant"/);
  });
});

afterAll(async () => {
  // The proofs seen are remembered until they could no longer be accepted, then swept.
  const { rows } = await database.db.$client.query<{ n: number }>(
    `select count(*)::int as n from dpop_proofs where expires_at > now() + make_interval(secs => ${DPOP_MAX_AGE_SECONDS + 10})`,
  );
  expect(rows[0]!.n).toBe(0);
});

describe('proof checks beyond the browser key', () => {
  const url = 'https://members.example.com/api/userdetails/';
  const token = 'header.payload.signature';
  const always = { firstUse: async () => true };
  async function signedWith(alg: string, keyAlg: string, header: Record<string, unknown> = {}) {
    const { privateKey, publicKey } = await generateKeyPair(keyAlg, { extractable: true });
    const jwk = await exportJWK(publicKey);
    const proof = await new SignJWT({
      jti: randomBytes(8).toString('hex'),
      htm: 'GET',
      htu: url,
      iat: Math.floor(Date.now() / 1000),
      ath: createHash('sha256').update(token).digest('base64url'),
    })
      .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk, ...header })
      .sign(privateKey);
    return { proof, jkt: await calculateJwkThumbprint(jwk, 'sha256'), privateJwk: await exportJWK(privateKey) };
  }

  it('accepts the other public-key algorithms the provider offers (Ed25519)', async () => {
    const { proof, jkt } = await signedWith('EdDSA', 'EdDSA');
    await expect(
      verifyDpopProof(proof, { method: 'GET', url, accessToken: token, jkt }, always),
    ).resolves.toBeUndefined();
  });

  it('refuses a header that carries the private key, and a key that does not fit the algorithm named', async () => {
    const leaked = await signedWith('ES256', 'ES256');
    const withPrivate = await signedWith('ES256', 'ES256', { jwk: leaked.privateJwk });
    await expect(
      verifyDpopProof(withPrivate.proof, { method: 'GET', url, accessToken: token, jkt: leaked.jkt }, always),
    ).rejects.toThrow('proof carries no public key');
    const p384 = await signedWith('ES384', 'ES384');
    const renamed = [
      Buffer.from(JSON.stringify({ ...decodeProtectedHeader(p384.proof), alg: 'ES256' })).toString('base64url'),
      ...p384.proof.split('.').slice(1),
    ].join('.');
    await expect(
      verifyDpopProof(renamed, { method: 'GET', url, accessToken: token, jkt: p384.jkt }, always),
    ).rejects.toThrow('proof key does not fit its algorithm');
  });
});

describe('the thumbprint of a proof key (RFC 7638), which the token names in cnf.jkt', () => {
  it('is the one the standard defines for EC, RSA and OKP keys, whatever other members the key carries', async () => {
    for (const algorithm of ['ES256', 'ES384', 'RS256', 'EdDSA']) {
      const { publicKey } = await generateKeyPair(algorithm, { extractable: true });
      const jwk = { ...(await exportJWK(publicKey)), alg: algorithm, use: 'sig', kid: 'k1' };
      expect(jwkThumbprint(jwk), algorithm).toBe(await calculateJwkThumbprint(jwk, 'sha256'));
    }
  });

  it('refuses a key of an unknown type or without a member its type needs', () => {
    expect(() => jwkThumbprint({ kty: 'oct', k: 'c2VjcmV0' })).toThrow('unknown key type');
    expect(() => jwkThumbprint({ kty: 'EC', crv: 'P-256', x: 'AAAA' })).toThrow('key has no y');
    expect(() => jwkThumbprint({ kty: 'toString' })).toThrow('unknown key type');
  });
});

describe('the proof ledger shared by every API process', () => {
  const pool = database.db.$client;
  let statements = 0;
  /** The number of proofs in each statement sent, in order. */
  let sizes: number[] = [];
  let failNext = false;
  /** While set, statements are held on their way (as over a slow network) until it is resolved. */
  let held: Promise<void> | null = null;
  const store: ProofStore = {
    query: async <Row extends pg.QueryResultRow>(config: pg.QueryConfig) => {
      statements++;
      sizes.push((config.values![0] as string[]).length);
      if (failNext) {
        failNext = false;
        throw new Error('the connection was lost');
      }
      if (held) await held;
      return pool.query<Row>(config);
    },
  };
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const ledger = postgresProofLedger(store);
  const proofKeys = (count: number) => Array.from({ length: count }, () => `burst.${randomBytes(8).toString('hex')}`);
  const expiresAt = () => new Date(Date.now() + 60_000);

  it('records the proofs of requests that arrive together in one statement: each first use once, every repeat refused', async () => {
    statements = 0;
    const keys = proofKeys(40);
    const verdicts = await Promise.all([...keys, ...keys.slice(0, 10)].map((key) => ledger.firstUse(key, expiresAt())));
    expect(verdicts.slice(0, 40)).toEqual(Array(40).fill(true));
    expect(verdicts.slice(40)).toEqual(Array(10).fill(false));
    expect(statements).toBe(1);
    // Recorded for good: another process's ledger (a new one here) refuses them too.
    expect(await postgresProofLedger(pool).firstUse(keys[0]!, expiresAt())).toBe(false);
  });

  it('sends a proof at once while one statement is on its way, and those that arrive while two are together in the next one', async () => {
    sizes = [];
    let release = () => {};
    held = new Promise((resolve) => (release = resolve));
    const [first, second, ...later] = proofKeys(22);
    const firstVerdict = ledger.firstUse(first!, expiresAt());
    await turn();
    const secondVerdict = ledger.firstUse(second!, expiresAt());
    await turn();
    // Both on their way: the second did not wait for the first's answer.
    expect(sizes).toEqual([1, 1]);
    const laterVerdicts = later.map((key) => ledger.firstUse(key, expiresAt()));
    await turn();
    expect(sizes).toEqual([1, 1]);
    held = null;
    release();
    expect([await firstVerdict, await secondVerdict]).toEqual([true, true]);
    expect(await Promise.all(laterVerdicts)).toEqual(Array(20).fill(true));
    expect(sizes).toEqual([1, 1, 20]);
  });

  it('refuses one proof recorded by two statements on their way at once: the table decides which came first', async () => {
    let release = () => {};
    held = new Promise((resolve) => (release = resolve));
    const [key] = proofKeys(1);
    const once = ledger.firstUse(key!, expiresAt());
    await turn();
    const again = ledger.firstUse(key!, expiresAt());
    await turn();
    held = null;
    release();
    expect((await Promise.all([once, again])).sort()).toEqual([false, true]);
  });

  it("fails only the failed statement's proofs, and records the next ones", async () => {
    const [lost, next] = proofKeys(2);
    failNext = true;
    await expect(ledger.firstUse(lost!, expiresAt())).rejects.toThrow('the connection was lost');
    expect(await ledger.firstUse(next!, expiresAt())).toBe(true);
  });
});
