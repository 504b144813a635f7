import { createHash, KeyObject, verify as verifySignature, webcrypto } from 'node:crypto';
import { types } from 'node:util';

/**
 * Inputs up to this size are digested on the event loop; larger ones still go to libuv's pool, where hashing them
 * does not hold every other request back.
 */
export const IN_PLACE_MAX_BYTES = 64 * 1024;
const HASHES: Readonly<Record<string, string>> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};
/** An ECDSA signature in WebCrypto's form (r and s side by side) has this many bytes for each curve. */
const ECDSA_SIGNATURE_BYTES: Readonly<Record<string, number>> = { 'P-256': 64, 'P-384': 96, 'P-521': 132 };

/** An algorithm's name as WebCrypto reads it (either the name alone or `{ name }`), upper-cased: names are case-insensitive. */
function nameOf(algorithm: unknown): string | undefined {
  const name = typeof algorithm === 'object' && algorithm !== null ? (algorithm as { name?: unknown }).name : algorithm;
  return typeof name === 'string' ? name.toUpperCase() : undefined;
}

/** The bytes of a BufferSource, without copying them; anything else is WebCrypto's to refuse. */
function bytesOf(data: unknown): Uint8Array | undefined {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data) && data.buffer instanceof ArrayBuffer)
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return undefined;
}

/** Public keys as node:crypto's KeyObjects, made once per CryptoKey (a CryptoKey cannot be changed once made). */
const keyObjects = new WeakMap<webcrypto.CryptoKey, KeyObject>();
function keyObjectOf(key: webcrypto.CryptoKey): KeyObject {
  let keyObject = keyObjects.get(key);
  if (!keyObject) keyObjects.set(key, (keyObject = KeyObject.from(key)));
  return keyObject;
}

/**
 * How to check a signature in place, or undefined when it is not one of the kinds checked here: an ECDSA signature
 * with a SHA hash or an Ed25519 one, made with a public key whose algorithm and usages allow it. Everything else,
 * and every misuse WebCrypto refuses with its own error, goes to WebCrypto as before.
 */
function inPlaceCheck(
  algorithm: unknown,
  key: unknown,
): { hash: string | null; signatureBytes: number | null } | undefined {
  if (!types.isCryptoKey(key) || key.type !== 'public' || !key.usages.includes('verify')) return undefined;
  const name = nameOf(algorithm);
  if (name === undefined || name !== key.algorithm.name.toUpperCase()) return undefined;
  if (name === 'ED25519') return { hash: null, signatureBytes: null };
  if (name !== 'ECDSA') return undefined;
  const hash = HASHES[nameOf((algorithm as { hash?: unknown }).hash) ?? ''];
  const signatureBytes = ECDSA_SIGNATURE_BYTES[(key.algorithm as webcrypto.EcKeyAlgorithm).namedCurve];
  return hash && signatureBytes ? { hash, signatureBytes } : undefined;
}

const inPlace = new WeakSet<webcrypto.SubtleCrypto>();

/**
 * Makes `subtle.digest` of a small input and `subtle.verify` of an ECDSA or Ed25519 signature answer from the event
 * loop, as the API's own DPoP check does (decision 020), instead of sending each to libuv's pool and back (decision
 * 049). oidc-provider checks a token request's DPoP proof through jose, which verifies the proof's signature and takes
 * its key's thumbprint through WebCrypto, each a job handed to another thread and its answer handed back: on two
 * cores that hand-over cost more of the machine than the work (a digest of a hundred bytes, one P-256 signature).
 * The answers are the same promises of the same values: an ArrayBuffer of the digest, true or false for a signature
 * (false for one of the wrong length, as WebCrypto says). Once per `subtle`.
 */
export function checkInPlace(subtle: webcrypto.SubtleCrypto = webcrypto.subtle): void {
  if (inPlace.has(subtle)) return;
  inPlace.add(subtle);
  // Their overloads as one signature: the arguments are passed on as they came, whatever their types.
  const digest = subtle.digest.bind(subtle) as (...args: unknown[]) => Promise<ArrayBuffer>;
  const verify = subtle.verify.bind(subtle) as (...args: unknown[]) => Promise<boolean>;

  subtle.digest = ((...args: unknown[]) => {
    const [algorithm, data] = args;
    const hash = HASHES[nameOf(algorithm) ?? ''];
    const bytes = bytesOf(data);
    if (!hash || !bytes || bytes.byteLength > IN_PLACE_MAX_BYTES) return digest(...args);
    // A copy of exactly the digest's bytes: a Buffer may be a view of a larger pool.
    return Promise.resolve(new Uint8Array(createHash(hash).update(bytes).digest()).buffer);
  }) as webcrypto.SubtleCrypto['digest'];

  subtle.verify = ((...args: unknown[]) => {
    const [algorithm, key, signature, data] = args;
    const check = inPlaceCheck(algorithm, key);
    const signatureBytes = bytesOf(signature);
    const dataBytes = bytesOf(data);
    if (!check || !signatureBytes || !dataBytes || dataBytes.byteLength > IN_PLACE_MAX_BYTES) return verify(...args);
    if (check.signatureBytes !== null && signatureBytes.byteLength !== check.signatureBytes)
      return Promise.resolve(false);
    try {
      return Promise.resolve(
        verifySignature(
          check.hash,
          dataBytes,
          { key: keyObjectOf(key as webcrypto.CryptoKey), dsaEncoding: 'ieee-p1363' },
          signatureBytes,
        ),
      );
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }) as webcrypto.SubtleCrypto['verify'];
}
