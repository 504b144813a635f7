import { generateKeyPairSync, sign, webcrypto, type JsonWebKey } from 'node:crypto';
import { EmbeddedJWK, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { rememberedKeyImports, rememberPublicKeyImports } from './public-key-imports.js';

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' };

function p256() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKey,
    publicJwk: publicKey.export({ format: 'jwk' }),
    privateJwk: privateKey.export({ format: 'jwk' }),
  };
}

/**
 * A SubtleCrypto whose imports are counted, the real one doing the work through SubtleCrypto's own method: not the
 * process's `webcrypto.subtle.importKey`, which the app's start (in another file of this worker) may have wrapped.
 */
function countedSubtle() {
  const real = webcrypto.subtle;
  const original = (Object.getPrototypeOf(real) as webcrypto.SubtleCrypto).importKey.bind(real);
  const subtle = Object.assign(Object.create(real) as webcrypto.SubtleCrypto, { imports: 0 });
  subtle.importKey = ((...args: Parameters<typeof real.importKey>) => {
    subtle.imports += 1;
    return original(...args);
  }) as typeof real.importKey;
  rememberPublicKeyImports(subtle);
  return subtle;
}

/** A DPoP proof as a browser signs one: its public key in the header, signed with `signer`. */
function proof(jwk: JsonWebKey, signer: ReturnType<typeof p256>['privateKey']) {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'ES256', typ: 'dpop+jwt', jwk })}.${part({ jti: crypto.randomUUID(), iat: 1 })}`;
  const signature = sign('sha256', Buffer.from(input), { key: signer, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

describe('public keys imported from a JWK', () => {
  it('are remembered from their second import: the same key, algorithm and usages then give back one CryptoKey', async () => {
    const subtle = countedSubtle();
    const { publicJwk } = p256();
    const remembered = () => rememberedKeyImports.keys().some((key) => key.includes(publicJwk.x!));
    await subtle.importKey('jwk', { ...publicJwk }, ECDSA, true, ['verify']);
    expect(remembered()).toBe(false);
    const second = await subtle.importKey('jwk', { ...publicJwk }, ECDSA, true, ['verify']);
    const third = await subtle.importKey('jwk', { ...publicJwk }, ECDSA, true, ['verify']);
    expect(third).toBe(second);
    expect(subtle.imports).toBe(2);
    expect(remembered()).toBe(true);
    // Another extractability is another import, and so is the same key written otherwise (its members in another
    // order, one more member): an entry is only ever given back for the arguments it was made from.
    for (let n = 0; n < 2; n++) await subtle.importKey('jwk', { ...publicJwk }, ECDSA, false, ['verify']);
    expect(subtle.imports).toBe(4);
    const { x, y, crv, kty } = publicJwk;
    for (let n = 0; n < 2; n++) {
      await subtle.importKey('jwk', { x, y, crv, kty }, ECDSA, true, ['verify']);
      await subtle.importKey('jwk', { ...publicJwk, use: 'sig' }, ECDSA, true, ['verify']);
    }
    expect(subtle.imports).toBe(8);
    expect(await subtle.importKey('jwk', { x, y, crv, kty }, ECDSA, true, ['verify'])).toBe(
      await subtle.importKey('jwk', { x, y, crv, kty }, ECDSA, true, ['verify']),
    );
    expect(subtle.imports).toBe(8);
  });

  it('are imported each time when private, in another format, or when the import fails', async () => {
    const subtle = countedSubtle();
    const { privateJwk, publicJwk } = p256();
    // Three times each: a key kept from its second import would be imported twice, not three times.
    for (let n = 0; n < 3; n++) await subtle.importKey('jwk', { ...privateJwk }, ECDSA, false, ['sign']);
    expect(subtle.imports).toBe(3);
    const raw = Buffer.concat([
      Buffer.from([4]),
      Buffer.from(publicJwk.x!, 'base64url'),
      Buffer.from(publicJwk.y!, 'base64url'),
    ]);
    for (let n = 0; n < 3; n++) await subtle.importKey('raw', raw, ECDSA, true, ['verify']);
    expect(subtle.imports).toBe(6);
    // A point that is not on the curve: refused both times, the refusal not kept.
    const offCurve = { ...publicJwk, y: publicJwk.x };
    for (let n = 0; n < 3; n++) {
      await expect(subtle.importKey('jwk', offCurve, ECDSA, true, ['verify'])).rejects.toThrow();
    }
    expect(subtle.imports).toBe(9);
  });

  it('check through jose, as the provider checks a proof, that the proof is signed by the key its header names', async () => {
    rememberPublicKeyImports();
    const browser = p256();
    const other = p256();
    const options = { algorithms: ['ES256'], typ: 'dpop+jwt' };
    const check = (jwk: JsonWebKey, signer: typeof browser.privateKey) =>
      jwtVerify(proof(jwk, signer), EmbeddedJWK, options);
    // A session's first proof and its first refresh's: its key is remembered from the second.
    await expect(check(browser.publicJwk, browser.privateKey)).resolves.toBeTruthy();
    await expect(check(browser.publicJwk, browser.privateKey)).resolves.toBeTruthy();
    expect(rememberedKeyImports.keys().some((key) => key.includes(browser.publicJwk.x!))).toBe(true);
    // With the browser's key remembered: another key is its own, never answered with the one remembered.
    await expect(check(other.publicJwk, other.privateKey)).resolves.toBeTruthy();
    await expect(check(other.publicJwk, other.privateKey)).resolves.toBeTruthy();
    await expect(check(other.publicJwk, browser.privateKey)).rejects.toThrow('signature verification failed');
    await expect(check(browser.publicJwk, other.privateKey)).rejects.toThrow('signature verification failed');
    await expect(check(browser.publicJwk, browser.privateKey)).resolves.toBeTruthy();
  });
});
