import { createHash, generateKeyPairSync, randomBytes, sign, webcrypto, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { answerWebCryptoInPlace, IN_PLACE_MAX_BYTES } from './webcrypto-in-place.js';

/** SubtleCrypto's own methods, not the process's `webcrypto.subtle`, which the app's start may have changed. */
const own = Object.getPrototypeOf(webcrypto.subtle) as webcrypto.SubtleCrypto;
const real = {
  digest: own.digest.bind(webcrypto.subtle),
  verify: own.verify.bind(webcrypto.subtle),
  importKey: own.importKey.bind(webcrypto.subtle),
};

/** A SubtleCrypto whose digests and verifications sent to WebCrypto are counted, answering in place where it can. */
function countedSubtle() {
  const subtle = Object.assign(Object.create(webcrypto.subtle) as webcrypto.SubtleCrypto, { sent: 0 });
  subtle.digest = ((...args: Parameters<typeof real.digest>) => {
    subtle.sent += 1;
    return real.digest(...args);
  }) as typeof real.digest;
  subtle.verify = ((...args: Parameters<typeof real.verify>) => {
    subtle.sent += 1;
    return real.verify(...args);
  }) as typeof real.verify;
  answerWebCryptoInPlace(subtle);
  return subtle;
}

const hex = (buffer: ArrayBuffer) => Buffer.from(buffer).toString('hex');

/** The answer, or the error's name when it rejects: WebCrypto's refusals are DOMExceptions named for their kind. */
const settled = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ refused: (error as Error).name }),
  );

type Signer = {
  name: string;
  algorithm: webcrypto.AlgorithmIdentifier | webcrypto.EcdsaParams;
  importAs: webcrypto.AlgorithmIdentifier | webcrypto.EcKeyImportParams;
  privateKey: KeyObject;
  publicKey: KeyObject;
  sign: (data: Uint8Array) => Buffer;
};

function ecdsa(curve: 'P-256' | 'P-384' | 'P-521', hash: 'SHA-256' | 'SHA-384' | 'SHA-512'): Signer {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
  const nodeHash = hash.replace('-', '').toLowerCase();
  return {
    name: `ECDSA ${curve} ${hash}`,
    algorithm: { name: 'ECDSA', hash },
    importAs: { name: 'ECDSA', namedCurve: curve },
    privateKey,
    publicKey,
    sign: (data) => sign(nodeHash, data, { key: privateKey, dsaEncoding: 'ieee-p1363' }),
  };
}

function ed25519(): Signer {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    name: 'Ed25519',
    algorithm: 'Ed25519',
    importAs: 'Ed25519',
    privateKey,
    publicKey,
    sign: (data) => sign(null, data, privateKey),
  };
}

const verifier = (signer: Signer, usages: webcrypto.KeyUsage[] = ['verify']) =>
  real.importKey('jwk', signer.publicKey.export({ format: 'jwk' }), signer.importAs, true, usages);

describe('WebCrypto digests and signature checks in place', () => {
  it('digest small inputs without WebCrypto, to the same bytes, whatever view or name they come in', async () => {
    const subtle = countedSubtle();
    const backing = randomBytes(300);
    const inputs: [string, webcrypto.BufferSource][] = [
      ['an ArrayBuffer', new Uint8Array(backing).buffer],
      ['a view into a larger buffer', new Uint8Array(backing.buffer, backing.byteOffset + 7, 100)],
      ['a DataView', new DataView(new Uint8Array(backing).buffer, 3, 50)],
      ['nothing', new Uint8Array(0)],
      ['the largest size digested in place', new Uint8Array(IN_PLACE_MAX_BYTES).fill(7)],
    ];
    for (const algorithm of ['SHA-1', 'SHA-256', 'sha-384', { name: 'SHA-512' }]) {
      for (const [what, data] of inputs) {
        const answer = await subtle.digest(algorithm, data);
        expect(answer, `${JSON.stringify(algorithm)} of ${what}`).toBeInstanceOf(ArrayBuffer);
        expect(hex(answer), `${JSON.stringify(algorithm)} of ${what}`).toBe(hex(await real.digest(algorithm, data)));
      }
    }
    expect(subtle.sent).toBe(0);
  });

  it('send larger inputs and other algorithms to WebCrypto, which answers or refuses them as it would', async () => {
    const subtle = countedSubtle();
    const large = new Uint8Array(IN_PLACE_MAX_BYTES + 1).fill(9);
    expect(hex(await subtle.digest('SHA-256', large))).toBe(hex(await real.digest('SHA-256', large)));
    expect(subtle.sent).toBe(1);
    const refused = await settled(subtle.digest('MD5', new Uint8Array(3)));
    expect(refused).toEqual(await settled(real.digest('MD5', new Uint8Array(3))));
    expect(refused).toHaveProperty('refused');
    expect(subtle.sent).toBe(2);
    // A buffer given away (detached), whose reading throws, and memory shared between threads: WebCrypto's answer.
    const detached = new Uint8Array(8).buffer;
    const viewOfDetached = new DataView(detached);
    structuredClone(detached, { transfer: [detached] });
    const shared = new Uint8Array(new SharedArrayBuffer(8));
    for (const [what, data] of [
      ['a detached buffer', detached],
      ['a view of a detached buffer', viewOfDetached],
      ['shared memory', shared],
    ] as const) {
      const answer = subtle.digest('SHA-256', data as webcrypto.BufferSource);
      expect(answer, what).toBeInstanceOf(Promise);
      expect(await settled(answer), what).toEqual(
        await settled(real.digest('SHA-256', data as webcrypto.BufferSource)),
      );
    }
    expect(subtle.sent).toBe(5);
  });

  const p256 = ecdsa('P-256', 'SHA-256');
  const signers: Signer[] = [
    p256,
    ecdsa('P-384', 'SHA-384'),
    ecdsa('P-521', 'SHA-512'),
    ecdsa('P-256', 'SHA-512'),
    // As @simplewebauthn/server names them for a passkey's signature: the hash as an object.
    { ...p256, name: 'ECDSA P-256 { name: SHA-256 }', algorithm: { name: 'ECDSA', hash: { name: 'SHA-256' } } },
    { ...p256, name: 'ecdsa P-256 sha-256 (lower case)', algorithm: { name: 'ecdsa', hash: 'sha-256' } },
    ed25519(),
  ];
  const ed = signers.at(-1)!;
  signers.push({ ...ed, name: 'ed25519 (lower case)', algorithm: { name: 'ed25519' } });

  it.each(signers.map((signer) => [signer.name, signer] as const))(
    'check a %s signature without WebCrypto: true for the signed bytes, false for any other, as WebCrypto says',
    async (_name, signer) => {
      const subtle = countedSubtle();
      const key = await verifier(signer);
      const data = randomBytes(200);
      const signature = signer.sign(data);
      const otherData = Buffer.from(data);
      otherData[17]! ^= 1;
      const otherSignature = Buffer.from(signature);
      otherSignature[5]! ^= 1;
      const cases: [string, Uint8Array, Uint8Array, boolean][] = [
        ['the signed bytes', signature, data, true],
        ['other bytes', signature, otherData, false],
        ['a changed signature', otherSignature, data, false],
        ['a signature one byte short', signature.subarray(1), data, false],
        ['a signature one byte long', Buffer.concat([signature, Buffer.from([0])]), data, false],
        ['no signature', new Uint8Array(0), data, false],
        ['a signature of other bytes', signer.sign(otherData), data, false],
      ];
      for (const [what, sig, signed, expected] of cases) {
        expect(await subtle.verify(signer.algorithm, key, sig, signed), what).toBe(expected);
        expect(await real.verify(signer.algorithm, key, sig, signed), `WebCrypto for ${what}`).toBe(expected);
      }
      expect(subtle.sent).toBe(0);
    },
  );

  it('send what is not a signature check of that kind to WebCrypto, which answers or refuses it as it would', async () => {
    const subtle = countedSubtle();
    const data = randomBytes(64);
    const ed448 = generateKeyPairSync('ed448');
    const ed448Key = await real.importKey('jwk', ed448.publicKey.export({ format: 'jwk' }), 'Ed448', true, ['verify']);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsaAlgorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    const rsaKey = await real.importKey('jwk', rsa.publicKey.export({ format: 'jwk' }), rsaAlgorithm, true, ['verify']);
    const hmacKey = await real.importKey('raw', randomBytes(32), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    const cases: [string, unknown, unknown, Uint8Array, Uint8Array][] = [
      ['an RSA signature', rsaAlgorithm, rsaKey, sign('sha256', data, rsa.privateKey), data],
      ['an HMAC', { name: 'HMAC' }, hmacKey, randomBytes(32), data],
      ['a key not for verifying', p256.algorithm, await verifier(p256, []), p256.sign(data), data],
      ['an Ed448 signature', 'Ed448', ed448Key, sign(null, data, ed448.privateKey), data],
      ['an ECDSA check with an Ed25519 key', p256.algorithm, await verifier(ed), ed.sign(data), data],
      ['an Ed25519 check with an ECDSA key', ed.algorithm, await verifier(p256), p256.sign(data), data],
      ['an ECDSA check without its hash', { name: 'ECDSA' }, await verifier(p256), p256.sign(data), data],
      ['a key that is not a CryptoKey', p256.algorithm, p256.publicKey, p256.sign(data), data],
      [
        'more bytes than are checked in place',
        p256.algorithm,
        await verifier(p256),
        p256.sign(new Uint8Array(IN_PLACE_MAX_BYTES + 1)),
        new Uint8Array(IN_PLACE_MAX_BYTES + 1),
      ],
    ];
    for (const [what, algorithm, key, signature, signed] of cases) {
      const args = [algorithm, key, signature, signed] as Parameters<typeof real.verify>;
      expect(await settled(subtle.verify(...args)), what).toEqual(await settled(real.verify(...args)));
    }
    expect(subtle.sent).toBe(cases.length);
  });

  it("answer jose's checks of a DPoP proof on the process's WebCrypto, as the server installs it: a proof signed with its key passes, one signed with another is refused", async () => {
    answerWebCryptoInPlace();
    // Its own methods now, in front of SubtleCrypto's: jose reaches them through globalThis.crypto, the same object.
    expect([Object.hasOwn(webcrypto.subtle, 'verify'), Object.hasOwn(webcrypto.subtle, 'digest')]).toEqual([
      true,
      true,
    ]);
    expect(globalThis.crypto.subtle).toBe(webcrypto.subtle);
    const verified = vi.spyOn(webcrypto.subtle, 'verify');
    const digested = vi.spyOn(webcrypto.subtle, 'digest');
    const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
    const browser = ecdsa('P-256', 'SHA-256');
    const thief = ecdsa('P-256', 'SHA-256');
    const { kty, crv, x, y } = browser.publicKey.export({ format: 'jwk' });
    const input = `${base64url(JSON.stringify({ alg: 'ES256', typ: 'dpop+jwt', jwk: { kty, crv, x, y } }))}.${base64url(
      JSON.stringify({ jti: 'a', htm: 'POST', htu: 'http://localhost/oidc/token', iat: 1 }),
    )}`;
    const check = (signer: Signer) =>
      jwtVerify(`${input}.${base64url(signer.sign(Buffer.from(input)))}`, EmbeddedJWK, {
        algorithms: ['ES256'],
        typ: 'dpop+jwt',
      });
    const { protectedHeader } = await check(browser);
    expect(await calculateJwkThumbprint(protectedHeader.jwk!, 'sha256')).toBe(
      base64url(createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest()),
    );
    await expect(check(thief)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
    expect([verified.mock.calls.length, digested.mock.calls.length]).toEqual([2, 1]);
    verified.mockRestore();
    digested.mockRestore();
  });
});
