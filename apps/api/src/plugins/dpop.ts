import { constants, createHash, createPublicKey, type JsonWebKey, type KeyObject, verify } from 'node:crypto';
import type pg from 'pg';
import { createBoundedCache } from '../lib/bounded-cache.js';

/** How old a proof may be (its `iat`), and how far ahead of our clock: RFC 9449 leaves the window to the server. */
export const DPOP_MAX_AGE_SECONDS = 60;
export const DPOP_FUTURE_SKEW_SECONDS = 5;
const MAX_PROOF_LENGTH = 4096;
/** Members of a private key: a proof's header carries the public key only. */
export const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

/** The signature algorithms accepted for proofs (public-key only), as Node verifies them. */
const ALGORITHMS: Record<string, { hash: string | null; keyType: string; curve?: string; pss?: boolean }> = {
  ES256: { hash: 'sha256', keyType: 'ec', curve: 'prime256v1' },
  ES384: { hash: 'sha384', keyType: 'ec', curve: 'secp384r1' },
  ES512: { hash: 'sha512', keyType: 'ec', curve: 'secp521r1' },
  RS256: { hash: 'sha256', keyType: 'rsa' },
  PS256: { hash: 'sha256', keyType: 'rsa', pss: true },
  EdDSA: { hash: null, keyType: 'ed25519' },
  Ed25519: { hash: null, keyType: 'ed25519' },
};

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

/**
 * What is worked out once per key or token, at most this many of each: the least recently used go first, so a flood
 * of made-up ones pushes out what it displaces and no more, and the browsers in use stay remembered.
 */
export const MAX_REMEMBERED = 10_000;
/**
 * What a remembered proof key costs beyond its header's text (measured: an imported P-256 or RSA-2048 public key
 * and its record take 3 to 4 KB of the process's memory, most of it outside the JavaScript heap).
 */
export const PROOF_KEY_BYTES = 4096;

/**
 * The DPoP memos of this process, bounded by bytes with their keys counted (a header or a token can be several
 * kilobytes of a caller's text). 10,000 browser keys of typical size (a 250-character header) fit the keys' budget;
 * a flood of 4,096-character headers is held to about 6,000.
 */
export const rememberedDpop = {
  /** Access tokens by the hash a proof's `ath` carries (a token is about a kilobyte). */
  tokens: createBoundedCache<string>({
    name: 'dpop-tokens',
    maxBytes: 16 * 1024 * 1024,
    maxEntries: MAX_REMEMBERED,
    bytesOf: (token) => token.length,
  }),
  /** Proofs' protected headers (their base64url text), checked, with their key imported. */
  headers: createBoundedCache<ProofKey>({
    name: 'dpop-proof-keys',
    maxBytes: 48 * 1024 * 1024,
    maxEntries: MAX_REMEMBERED,
    bytesOf: (proofKey) => proofKey.jkt.length + PROOF_KEY_BYTES,
  }),
};

/**
 * Whether a proof's `ath` is the hash of this access token. A browser sends the same token with every proof until
 * it renews it, so the hash (over a kilobyte of token) is taken once per token; the tokens are looked up by their
 * 43-character hash rather than by themselves (a lookup by the token would read all of it to find it), and one is
 * remembered only once its hash has been seen to match.
 */
function namesToken(ath: unknown, token: string): boolean {
  if (typeof ath !== 'string') return false;
  if (rememberedDpop.tokens.get(ath) === token) return true;
  if (sha256(token) !== ath) return false;
  rememberedDpop.tokens.set(ath, token);
  return true;
}
/** An address as a proof's `htu` names it: scheme, host and path, normalised; no query or fragment. */
const comparable = (address: string) => {
  const url = new URL(address);
  return `${url.protocol}//${url.host}${url.pathname}`;
};
/** Whether a proof's `htu` names the request's address: the same text, or the same address once normalised. */
function sameAddress(htu: unknown, address: string): boolean {
  if (typeof htu !== 'string') return false;
  if (htu === address) return true;
  try {
    return comparable(htu) === comparable(address);
  } catch {
    return false;
  }
}
const decoded = (segment: string): unknown => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));

/** The members of a public key that its RFC 7638 thumbprint covers, in that order (lexicographic). */
const THUMBPRINT_MEMBERS: Record<string, string[]> = {
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
  OKP: ['crv', 'kty', 'x'],
};

/** The key's JWK SHA-256 thumbprint (RFC 7638), as `cnf.jkt` carries it (RFC 9449 section 6.1). */
export function jwkThumbprint(jwk: Record<string, unknown>): string {
  const members = typeof jwk['kty'] === 'string' ? THUMBPRINT_MEMBERS[jwk['kty']] : undefined;
  if (!members || !Object.hasOwn(THUMBPRINT_MEMBERS, jwk['kty'] as string)) throw new DpopError('unknown key type');
  const required: Record<string, string> = {};
  for (const member of members) {
    const value = jwk[member];
    if (typeof value !== 'string') throw new DpopError(`key has no ${member}`);
    required[member] = value;
  }
  return sha256(JSON.stringify(required));
}

interface ProofKey {
  jkt: string;
  key: KeyObject;
  verify: (typeof ALGORITHMS)[string];
}

/**
 * A proof's protected header, checked and its key imported once: every proof of one browser key carries the same
 * header, so the work is done per key, not per request.
 */
function proofKey(segment: string): ProofKey {
  const known = rememberedDpop.headers.get(segment);
  if (known) return known;
  let header: { typ?: unknown; alg?: unknown; jwk?: unknown };
  try {
    header = decoded(segment) as typeof header;
  } catch {
    throw new DpopError('malformed proof');
  }
  if (typeof header !== 'object' || header === null) throw new DpopError('malformed proof');
  if (header.typ !== 'dpop+jwt') throw new DpopError('proof is not of type dpop+jwt');
  const verify = typeof header.alg === 'string' ? ALGORITHMS[header.alg] : undefined;
  if (!verify || !Object.hasOwn(ALGORITHMS, header.alg as string)) throw new DpopError('proof algorithm not accepted');
  const jwk = header.jwk as Record<string, unknown> | undefined;
  if (!jwk || typeof jwk !== 'object' || PRIVATE_MEMBERS.some((member) => member in jwk)) {
    throw new DpopError('proof carries no public key');
  }
  let key: KeyObject;
  let jkt: string;
  try {
    key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    jkt = jwkThumbprint(jwk);
  } catch {
    throw new DpopError('proof carries no usable public key');
  }
  const details = key.asymmetricKeyDetails;
  const fits =
    key.asymmetricKeyType === verify.keyType &&
    (verify.curve === undefined || details?.namedCurve === verify.curve) &&
    (verify.keyType !== 'rsa' || (details?.modulusLength ?? 0) >= 2048);
  if (!fits) throw new DpopError('proof key does not fit its algorithm');
  return rememberedDpop.headers.set(segment, { jkt, key, verify });
}

/** A proof that passed every check but the replay check: what to record it under, and until when. */
export interface CheckedProof {
  ledgerKey: string;
  expiresAt: Date;
}

/**
 * Checks a DPoP proof (RFC 9449 section 4.3) for a request with a bound access token: one well-formed JWT of type
 * dpop+jwt, signed with an asymmetric algorithm by the public key in its own header, that key's thumbprint the
 * token's `cnf.jkt`, for this method and address, fresh, and naming this token (`ath`). Whether it was used
 * before is the ledger's to say (`verifyDpopProof` asks it at once). Synchronous: everything but the signature is
 * a string comparison or comes from a cache, and the signature takes tens of microseconds.
 */
export function checkDpopProof(proof: string, request: DpopRequest): CheckedProof {
  const parts = proof.length > MAX_PROOF_LENGTH ? [] : proof.split('.');
  if (parts.length !== 3) throw new DpopError('malformed proof');
  const [headerSegment, payloadSegment, signatureSegment] = parts as [string, string, string];
  const { jkt, key, verify: algorithm } = proofKey(headerSegment);
  if (jkt !== request.jkt) throw new DpopError('proof is signed by another key than the token is bound to');
  const signed = verify(
    algorithm.hash,
    Buffer.from(`${headerSegment}.${payloadSegment}`),
    algorithm.keyType === 'ec'
      ? { key, dsaEncoding: 'ieee-p1363' }
      : algorithm.pss
        ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
        : key,
    Buffer.from(signatureSegment, 'base64url'),
  );
  if (!signed) throw new DpopError('proof signature is not valid');
  let payload: Record<string, unknown>;
  try {
    payload = decoded(payloadSegment) as Record<string, unknown>;
  } catch {
    throw new DpopError('malformed proof');
  }
  if (typeof payload !== 'object' || payload === null) throw new DpopError('malformed proof');
  const { jti, htm, htu, iat, ath } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256) throw new DpopError('proof has no jti');
  if (htm !== request.method) throw new DpopError('proof is for another method');
  if (!sameAddress(htu, request.url)) throw new DpopError('proof is for another address');
  const now = Math.floor(Date.now() / 1000);
  if (typeof iat !== 'number' || iat < now - DPOP_MAX_AGE_SECONDS || iat > now + DPOP_FUTURE_SKEW_SECONDS) {
    throw new DpopError('proof is not fresh');
  }
  if (!namesToken(ath, request.accessToken)) throw new DpopError('proof is for another access token');
  return {
    ledgerKey: `${request.jkt}.${jti}`,
    expiresAt: new Date((iat + DPOP_MAX_AGE_SECONDS + DPOP_FUTURE_SKEW_SECONDS) * 1000),
  };
}

export const REPLAYED = 'proof was used before';

/** Every check, the replay check included. */
export async function verifyDpopProof(proof: string, request: DpopRequest, ledger: ProofLedger): Promise<void> {
  const { ledgerKey, expiresAt } = checkDpopProof(proof, request);
  if (!(await ledger.firstUse(ledgerKey, expiresAt))) throw new DpopError(REPLAYED);
}

/** Where the ledger's statements go: the pool, or in tests a pool whose statements are counted. */
export interface ProofStore {
  query<Row extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<Row>>;
}

interface PendingProof {
  key: string;
  expiresAt: Date;
  settle: (firstUse: boolean) => void;
  fail: (error: unknown) => void;
}

/**
 * How many of the ledger's statements may be on their way at once. With one, a proof that arrives while it is out
 * waits for its answer and then for its own: two round trips before the read may answer. A second lane lets it go at
 * once; only while both are out do proofs wait, and then they go together (measured: the DPoP reads' throughput
 * rises by about 3% with two, not further with three).
 */
const LANES = 2;

/**
 * The proofs used on every API process, in PostgreSQL (an unlogged table: a crash forgets proofs that are at most a
 * minute from expiring anyway), so a proof replayed to another process behind the load balancer is refused too.
 * Proofs are recorded as a group commit does it: a quiet process sends each proof at once (in the same turn of the
 * event loop as its request); while LANES statements are on their way, the proofs that arrive wait and then go
 * together in the next one, so a busy process sends one statement for many requests. The table's key decides which
 * use of a proof came first (two statements on their way at once included), and within one statement the first of
 * two equal proofs wins.
 */
export function postgresProofLedger(pool: ProofStore): ProofLedger {
  let waiting: PendingProof[] = [];
  let lanesInUse = 0;

  async function record(items: PendingProof[]) {
    const keys = items.map((item) => sha256(item.key));
    // The statement's proofs are kept until the last of them expires: a few seconds longer for some, and one
    // parameter instead of a timestamp to format and parse per proof.
    const keptUntil = new Date(items.reduce((latest, item) => Math.max(latest, item.expiresAt.getTime()), 0));
    const { rows } = await pool.query<{ proof_key: string }>({
      name: 'dpop-proofs-first-use-until',
      text: `insert into dpop_proofs (proof_key, expires_at)
             select proof_key, $2 from unnest($1::text[]) as proof_key on conflict do nothing returning proof_key`,
      values: [keys, keptUntil],
    });
    const fresh = new Set(rows.map((row) => row.proof_key));
    items.forEach((item, index) => item.settle(fresh.delete(keys[index]!)));
  }

  /** One lane: records what is waiting, then whatever arrived meanwhile, until nothing waits. */
  async function drain() {
    while (waiting.length > 0) {
      const items = waiting;
      waiting = [];
      await record(items).catch((error: unknown) => items.forEach((item) => item.fail(error)));
    }
    lanesInUse--;
  }

  return {
    firstUse(key, expiresAt) {
      return new Promise<boolean>((settle, fail) => {
        waiting.push({ key, expiresAt, settle, fail });
        // After the current turn's other requests have added theirs (they were parsed from the same socket reads);
        // a lane stays in use until it has found nothing more waiting.
        if (lanesInUse < LANES) {
          lanesInUse++;
          setImmediate(() => void drain());
        }
      });
    },
  };
}

/** Proofs that can no longer be accepted are forgotten (the sweep's timer). */
export async function sweepDpopProofs(pool: pg.Pool): Promise<void> {
  await pool.query('delete from dpop_proofs where expires_at < now()');
}
