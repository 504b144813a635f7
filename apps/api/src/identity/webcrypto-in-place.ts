import { createHash, KeyObject, verify as verifySignature, webcrypto } from 'node:crypto';
import { types } from 'node:util';

/**
 * Inputs up to this size are answered on the event loop (a token or a proof is well under it); larger ones still go
 * to libuv's pool, where their hashing holds no other request back. Hashing 4 KiB here takes a few µs, a small part
 * of the 50 to 80 µs the hand-over costs (decision 049).
 */
export const IN_PLACE_MAX_BYTES = 4 * 1024;
const HASHES: Readonly<Record<string, string>> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};
/** An ECDSA signature in WebCrypto's form (r and s side by side) has this many bytes for each curve. */
const ECDSA_SIGNATURE_BYTES: Readonly<Record<string, number>> = { 'P-256': 64, 'P-384': 96, 'P-521': 132 };

/** An algorithm's name as WebCrypto reads it (the name alone or `{ name }`), upper-cased: it ignores case. */
function nameOf(algorithm: unknown): string | undefined {
  const name = typeof algorithm === 'object' && algorithm !== null ? (algorithm as { name?: unknown }).name : algorithm;
  return typeof name === 'string' ? name.toUpperCase() : undefined;
}

/**
 * The bytes of a BufferSource, without copying them, when they are small enough to answer in place. Anything else
 * (a SharedArrayBuffer, a detached buffer, which throws when read, or no BufferSource at all) is WebCrypto's to
 * answer or refuse.
 */
function smallBytesOf(data: unknown): Uint8Array | undefined {
  try {
    let bytes: Uint8Array | undefined;
    if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
    else if (ArrayBuffer.isView(data) && data.buffer instanceof ArrayBuffer)
      bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return bytes && bytes.byteLength <= IN_PLACE_MAX_BYTES ? bytes : undefined;
  } catch {
    return undefined;
  }
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
 * 049). jose verifies through WebCrypto: the API's access tokens, and the provider's DPoP proofs, whose key's
 * thumbprint it takes through WebCrypto too; @simplewebauthn checks passkey signatures the same way. Each was a job
 * handed to another thread and its answer handed back, and on two cores that hand-over cost more of the machine
 * than the work. The answers are the same promises of the same values: an ArrayBuffer of the digest, true or false
 * for a signature (false for one of the wrong length, as WebCrypto says); a failure is an OperationError, as
 * WebCrypto's is. Once per `subtle`.
 */
export function answerWebCryptoInPlace(subtle: webcrypto.SubtleCrypto = webcrypto.subtle): void {
  if (inPlace.has(subtle)) return;
  inPlace.add(subtle);
  // Their overloads as one signature: the arguments are passed on as they came, whatever their types.
  const digest = subtle.digest.bind(subtle) as (...args: unknown[]) => Promise<ArrayBuffer>;
  const verify = subtle.verify.bind(subtle) as (...args: unknown[]) => Promise<boolean>;

  subtle.digest = ((...args: unknown[]) => {
    const [algorithm, data] = args;
    const hash = HASHES[nameOf(algorithm) ?? ''];
    const bytes = smallBytesOf(data);
    if (!hash || !bytes) return digest(...args);
    // A copy of exactly the digest's bytes: a Buffer may be a view of a larger pool.
    return Promise.resolve(new Uint8Array(createHash(hash).update(bytes).digest()).buffer);
  }) as webcrypto.SubtleCrypto['digest'];

  subtle.verify = ((...args: unknown[]) => {
    const [algorithm, key, signature, data] = args;
    const check = inPlaceCheck(algorithm, key);
    const signatureBytes = check && smallBytesOf(signature);
    const dataBytes = check && smallBytesOf(data);
    if (!check || !signatureBytes || !dataBytes) return verify(...args);
    if (check.signatureBytes !== null && signatureBytes.byteLength !== check.signatureBytes)
      return Promise.resolve(false);
    try {
      const publicKey = KeyObject.from(key as webcrypto.CryptoKey);
      return Promise.resolve(
        verifySignature(check.hash, dataBytes, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signatureBytes),
      );
    } catch (error) {
      return Promise.reject(new DOMException((error as Error).message, 'OperationError'));
    }
  }) as webcrypto.SubtleCrypto['verify'];
}
