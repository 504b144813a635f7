import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';

/** What a proof says, each of which a test may set wrong on purpose. */
export interface ProofClaims {
  jti?: string;
  iat?: number;
  htm?: string;
  htu?: string;
  ath?: string | null;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * A client's DPoP key (RFC 9449) as a browser holds one: the private half never leaves it; proofs name the public
 * half in their header. `proof(method, url, accessToken)` signs a fresh proof for one request, synchronously (the
 * load generator makes one per request).
 */
export async function dpopKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const jwk: JWK = { kty, crv, x, y };
  const jkt = await calculateJwkThumbprint(jwk, 'sha256');
  const header = base64url(JSON.stringify({ alg: 'ES256', typ: 'dpop+jwt', jwk }));
  function proof(method: string, url: string, accessToken?: string, claims: ProofClaims = {}): string {
    const ath = accessToken ? createHash('sha256').update(accessToken).digest('base64url') : undefined;
    const payload: Record<string, unknown> = {
      jti: claims.jti ?? randomUUID(),
      htm: claims.htm ?? method,
      htu: claims.htu ?? url,
      iat: claims.iat ?? Math.floor(Date.now() / 1000),
    };
    const hash = claims.ath === undefined ? ath : claims.ath;
    if (hash) payload['ath'] = hash;
    const signingInput = `${header}.${base64url(JSON.stringify(payload))}`;
    const signature = sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    return `${signingInput}.${base64url(signature)}`;
  }
  return { jwk, jkt, proof };
}
export type DpopKey = Awaited<ReturnType<typeof dpopKey>>;
