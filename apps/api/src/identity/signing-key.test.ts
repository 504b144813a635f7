import { compactVerify, exportJWK, generateKeyPair, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { NodeSigningKey } from './signing-key.js';

/** A private JWK of the algorithm, as the stored keys hold one. */
async function privateJwk(alg: 'ES256' | 'RS256', kid = `key-${alg}`): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
}

/** A compact JWS of `payload` signed by `key`, as oidc-provider assembles one around an external key's signature. */
async function signed(key: NodeSigningKey, payload: string) {
  const part = (text: string) => Buffer.from(text).toString('base64url');
  const input = `${part(JSON.stringify({ alg: key.alg, kid: key.kid }))}.${part(payload)}`;
  return `${input}.${Buffer.from(await key.sign(Buffer.from(input))).toString('base64url')}`;
}

describe('a signing key handed to the provider', () => {
  it('signs ES256 as JOSE requires it (64 bytes, r and s side by side), verifiable with its public half', async () => {
    const key = new NodeSigningKey(await privateJwk('ES256'));
    const jws = await signed(key, '{"sub":"member"}');
    expect(Buffer.from(jws.split('.')[2]!, 'base64url')).toHaveLength(64);
    const { payload } = await compactVerify(jws, key.keyObject());
    expect(Buffer.from(payload).toString()).toBe('{"sub":"member"}');
  });

  it('signs RS256 verifiably too, for a retired key', async () => {
    const key = new NodeSigningKey(await privateJwk('RS256'));
    await expect(compactVerify(await signed(key, '{}'), key.keyObject())).resolves.toBeTruthy();
  });

  it('shows the provider its public half only: its kid, alg and public key, no private part', async () => {
    const jwk = await privateJwk('ES256', 'the-kid');
    const key = new NodeSigningKey(jwk);
    expect([key.kid, key.alg, key.use, key.kty, key.crv, key.x, key.y]).toEqual([
      'the-kid',
      'ES256',
      'sig',
      'EC',
      'P-256',
      jwk.x,
      jwk.y,
    ]);
    expect(key.keyObject().type).toBe('public');
    expect(JSON.stringify(key)).not.toContain(jwk.d);
    expect(JSON.stringify(key.keyObject().export({ format: 'jwk' }))).not.toContain(jwk.d);
  });

  it('refuses a key without a kid, or of another algorithm, naming what is wrong', async () => {
    const nameless = await privateJwk('ES256');
    delete nameless.kid;
    expect(() => new NodeSigningKey(nameless)).toThrow('a signing key has no kid');
    const { privateKey } = await generateKeyPair('ES384', { extractable: true });
    const es384 = { ...(await exportJWK(privateKey)), kid: 'k384', alg: 'ES384' };
    expect(() => new NodeSigningKey(es384)).toThrow('signing key k384 is for ES384: only ES256 and RS256 keys sign');
  });
});
