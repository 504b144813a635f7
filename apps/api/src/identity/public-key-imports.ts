import { webcrypto } from 'node:crypto';
import { createBoundedCache, createSeenOnce } from '../lib/bounded-cache.js';
import { MAX_REMEMBERED, PRIVATE_MEMBERS, PROOF_KEY_BYTES } from '../plugins/dpop.js';

/** A JWK with any of these members holds a private or secret key (`priv`: a post-quantum one): never remembered. */
const SECRET_MEMBERS = [...PRIVATE_MEMBERS, 'priv'];

/**
 * Public keys imported into WebCrypto from a JWK, by the import's arguments (decision 044). The provider's token
 * endpoint imports the key of every DPoP proof it checks, and a browser signs every proof of its session with one
 * key: each refresh imported the same key again, about 140 µs of the event loop (190 µs under load). The process's
 * other public-JWK imports (jose's of a key set) are kept here too; there are few of them.
 */
export const rememberedKeyImports = createBoundedCache<webcrypto.CryptoKey>({
  name: 'provider-proof-keys',
  maxBytes: 48 * 1024 * 1024,
  maxEntries: MAX_REMEMBERED,
  // An imported public key costs what the API's own proof keys do.
  bytesOf: () => PROOF_KEY_BYTES,
});

/**
 * The public-JWK imports seen once, by their arguments' digest: a key is remembered from its second import. Most
 * sessions' keys sign one token request (the code's exchange) and never a refresh; keeping each of them filled the
 * memo (6,000 keys, 26 MB in the benchmark) with keys never asked for again.
 */
export const keyImportsSeenOnce = createSeenOnce({ name: 'provider-proof-keys-seen', maxEntries: MAX_REMEMBERED });

const remembering = new WeakSet<webcrypto.SubtleCrypto>();

function isPublicJwk(keyData: unknown): keyData is webcrypto.JsonWebKey {
  if (typeof keyData !== 'object' || keyData === null || Array.isArray(keyData)) return false;
  const { kty } = keyData as webcrypto.JsonWebKey;
  return (kty === 'EC' || kty === 'RSA' || kty === 'OKP') && !SECRET_MEMBERS.some((member) => member in keyData);
}

/**
 * Makes `subtle.importKey` give the CryptoKey it made before for the same public JWK, algorithm, extractability and
 * usages, rather than import it again (decision 044), from the second import of those arguments on. oidc-provider
 * checks DPoP proofs through jose, which imports a proof's key for each request and has no setting for another way.
 * A CryptoKey cannot be changed once made, so one serves every caller that asks for it; an import that fails is not
 * kept, and keys with private or secret members, and every other format, are imported as before. At most
 * MAX_REMEMBERED keys are kept, the least recently used going first. Once per `subtle`.
 */
export function rememberPublicKeyImports(subtle: webcrypto.SubtleCrypto = webcrypto.subtle): void {
  if (remembering.has(subtle)) return;
  remembering.add(subtle);
  // Its overloads as one signature: the arguments are passed on as they came, whatever their types.
  const importKey = subtle.importKey.bind(subtle) as (...args: unknown[]) => Promise<webcrypto.CryptoKey>;
  const remembered = (...args: unknown[]): Promise<webcrypto.CryptoKey> => {
    const [format, keyData, algorithm, extractable, usages] = args;
    if (format !== 'jwk' || !isPublicJwk(keyData)) return importKey(...args);
    let key: string;
    try {
      key = JSON.stringify([keyData, algorithm, extractable, usages]);
    } catch {
      // Arguments JSON cannot write (a cycle, a BigInt) are WebCrypto's to refuse, as a rejected promise.
      return importKey(...args);
    }
    if (!rememberedKeyImports.has(key) && keyImportsSeenOnce.firstTime(key)) return importKey(...args);
    return rememberedKeyImports.build(key, () => importKey(...args));
  };
  // The same function under SubtleCrypto's overloads, which differ only in their arguments' types.
  subtle.importKey = remembered as webcrypto.SubtleCrypto['importKey'];
}
