import { createHash } from 'node:crypto';
import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type JWK,
  type JWTHeaderParameters,
} from 'jose';
import type pg from 'pg';

/** How old a proof may be (its `iat`), and how far ahead of our clock: RFC 9449 leaves the window to the server. */
export const DPOP_MAX_AGE_SECONDS = 60;
export const DPOP_FUTURE_SKEW_SECONDS = 5;
/** Proofs signed with these only; the same public-key algorithms the provider accepts for DPoP. */
const DPOP_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'EdDSA', 'Ed25519'];
/** Members of a private key: a proof's header carries the public key only. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];
const MAX_PROOF_LENGTH = 4096;

export class DpopError extends Error {}

/** What the proof must match: this request and the token it comes with. */
export interface DpopRequest {
  method: string;
  /** The address the client called, as the public sees it (scheme, host and path; the query is not compared). */
  url: string;
  accessToken: string;
  /** The thumbprint the token is bound to (its `cnf.jkt`). */
  jkt: string;
}

/** Remembers the proofs already used, for as long as they could be accepted; false for one seen before. */
export interface ProofLedger {
  firstUse(key: string, expiresAt: Date): Promise<boolean>;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const comparable = (address: string) => {
  const url = new URL(address);
  return `${url.protocol}//${url.host}${url.pathname}`;
};

/**
 * Checks a DPoP proof (RFC 9449 section 4.3) for a request with a bound access token: one well-formed JWT of type
 * dpop+jwt, signed with an asymmetric algorithm by the public key in its own header, that key's thumbprint the
 * token's `cnf.jkt`, for this method and address, fresh, naming this token (`ath`), and never used before.
 */
export async function verifyDpopProof(proof: string, request: DpopRequest, ledger: ProofLedger): Promise<void> {
  if (proof.length > MAX_PROOF_LENGTH || proof.split('.').length !== 3) throw new DpopError('malformed proof');
  let header: JWTHeaderParameters;
  try {
    header = decodeProtectedHeader(proof) as JWTHeaderParameters;
  } catch {
    throw new DpopError('malformed proof');
  }
  if (header.typ !== 'dpop+jwt') throw new DpopError('proof is not of type dpop+jwt');
  if (typeof header.alg !== 'string' || !DPOP_ALGORITHMS.includes(header.alg)) {
    throw new DpopError('proof algorithm not accepted');
  }
  const jwk = header.jwk as JWK | undefined;
  if (!jwk || typeof jwk !== 'object' || PRIVATE_MEMBERS.some((member) => member in jwk)) {
    throw new DpopError('proof carries no public key');
  }
  if ((await calculateJwkThumbprint(jwk, 'sha256')) !== request.jkt) {
    throw new DpopError('proof is signed by another key than the token is bound to');
  }
  let payload: Record<string, unknown>;
  try {
    const key = await importJWK(jwk, header.alg);
    ({ payload } = await jwtVerify(proof, key, { typ: 'dpop+jwt', algorithms: [header.alg] }));
  } catch {
    throw new DpopError('proof signature is not valid');
  }
  const { jti, htm, htu, iat, ath } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256) throw new DpopError('proof has no jti');
  if (htm !== request.method) throw new DpopError('proof is for another method');
  let sameAddress = false;
  try {
    sameAddress = typeof htu === 'string' && comparable(htu) === comparable(request.url);
  } catch {
    sameAddress = false;
  }
  if (!sameAddress) throw new DpopError('proof is for another address');
  const now = Math.floor(Date.now() / 1000);
  if (typeof iat !== 'number' || iat < now - DPOP_MAX_AGE_SECONDS || iat > now + DPOP_FUTURE_SKEW_SECONDS) {
    throw new DpopError('proof is not fresh');
  }
  if (ath !== sha256(request.accessToken)) throw new DpopError('proof is for another access token');
  const expiresAt = new Date((iat + DPOP_MAX_AGE_SECONDS + DPOP_FUTURE_SKEW_SECONDS) * 1000);
  if (!(await ledger.firstUse(`${request.jkt}.${jti}`, expiresAt))) throw new DpopError('proof was used before');
}

/**
 * The proofs used on every API process, in PostgreSQL (an unlogged table: a crash forgets proofs that are at most a
 * minute from expiring anyway), so a proof replayed to another process behind the load balancer is refused too.
 */
export function postgresProofLedger(pool: pg.Pool): ProofLedger {
  return {
    async firstUse(key, expiresAt) {
      const { rowCount } = await pool.query({
        name: 'dpop-proof-first-use',
        text: 'insert into dpop_proofs (proof_key, expires_at) values ($1, $2) on conflict do nothing',
        values: [sha256(key), expiresAt],
      });
      return rowCount === 1;
    },
  };
}

/** Proofs that can no longer be accepted are forgotten (the sweep's timer). */
export async function sweepDpopProofs(pool: pg.Pool): Promise<void> {
  await pool.query('delete from dpop_proofs where expires_at < now()');
}
