import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/** What a proof says, each of which a test may set wrong on purpose. */
export interface ProofClaims {
  jti?: string;
  iat?: number;
  htm?: string;
  htu?: string;
  ath?: string | null;
}

/**
 * A client's DPoP key (RFC 9449) as a browser holds one: the private half never leaves it; proofs name the public
 * half in their header. `proof(method, url, accessToken)` signs a fresh proof for one request.
 */
export async function dpopKey() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk: JWK = await exportJWK(publicKey);
  const jkt = await calculateJwkThumbprint(jwk, 'sha256');
  async function proof(method: string, url: string, accessToken?: string, claims: ProofClaims = {}): Promise<string> {
    const ath = accessToken ? createHash('sha256').update(accessToken).digest('base64url') : undefined;
    const payload: Record<string, unknown> = {
      jti: claims.jti ?? randomUUID(),
      htm: claims.htm ?? method,
      htu: claims.htu ?? url,
      iat: claims.iat ?? Math.floor(Date.now() / 1000),
    };
    const hash = claims.ath === undefined ? ath : claims.ath;
    if (hash) payload['ath'] = hash;
    return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk }).sign(privateKey);
  }
  return { jwk, jkt, proof };
}
export type DpopKey = Awaited<ReturnType<typeof dpopKey>>;
