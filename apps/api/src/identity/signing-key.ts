import { createPrivateKey, createPublicKey, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { ExternalSigningKey } from 'oidc-provider';

/**
 * How node:crypto makes each algorithm's signature that a stored key may have: its hash and, for ECDSA, its encoding
 * (JOSE's is IEEE P1363, r and s side by side; RSA's PKCS #1 v1.5 signature has none to choose).
 */
const SIGNATURES: Record<'ES256' | 'RS256', { hash: string; dsaEncoding?: 'ieee-p1363' }> = {
  ES256: { hash: 'sha256', dsaEncoding: 'ieee-p1363' },
  RS256: { hash: 'sha256' },
};

/**
 * One of the provider's signing keys, handed to oidc-provider as an external signing key (decision 043): node:crypto
 * signs a token in 31 µs where jose, through WebCrypto, takes 151 (ES256, `npm run bench:signatures`). The private key
 * stays in this object; the provider sees its public half, to publish it and to check its own tokens.
 */
export class NodeSigningKey extends ExternalSigningKey {
  readonly #kid: string;
  readonly #alg: keyof typeof SIGNATURES;
  readonly #private: KeyObject;
  readonly #public: KeyObject;

  constructor(jwk: JWK) {
    super();
    if (!jwk.kid) throw new Error('a signing key has no kid');
    if (!jwk.alg || !Object.hasOwn(SIGNATURES, jwk.alg)) {
      throw new Error(`signing key ${jwk.kid} is for ${jwk.alg ?? 'no algorithm'}: only ES256 and RS256 keys sign`);
    }
    this.#kid = jwk.kid;
    this.#alg = jwk.alg as keyof typeof SIGNATURES;
    this.#private = createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
    this.#public = createPublicKey(this.#private);
  }

  // Getters alone: oidc-provider assigns a key's kid or alg only when it lacks one, and the constructor gives both.
  override get kid(): string {
    return this.#kid;
  }

  override get alg(): string {
    return this.#alg;
  }

  override keyObject(): KeyObject {
    return this.#public;
  }

  override sign(data: Uint8Array): Uint8Array {
    const { hash, dsaEncoding } = SIGNATURES[this.#alg];
    return sign(hash, data, dsaEncoding ? { key: this.#private, dsaEncoding } : this.#private);
  }
}
