import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { createLocalJWKSet, errors, exportJWK, generateKeyPair, type JWK, type JWTVerifyGetKey } from 'jose';
import type { AppConfig } from '../config/env.js';
import type { Database } from '../db/client.js';
import { oidcKeys } from '../db/schema/index.js';
import { isSealed, type KeyService } from '../secrets/key-service.js';

export interface ProviderKeys {
  /** Private signing JWKs; the first signs, the others still verify what they signed. */
  signing: JWK[];
  /** Cookie keys; the first signs, the others still verify. */
  cookies: string[];
  /** When each signing key that no longer signs stopped signing (kid to ISO time), so it can go once unused. */
  retired?: Record<string, string>;
}

/** Tokens the provider signs live at most this long: an ID token an hour, an access token ACCESS_TOKEN_TTL. */
export const ID_TOKEN_TTL_SECONDS = 3600;

/** How long a signing key keeps verifying after it stopped signing: the longest lifetime of a token it signed. */
export const longestSignedTokenSeconds = (config: Pick<AppConfig, 'sessions'>) =>
  Math.max(ID_TOKEN_TTL_SECONDS, config.sessions.accessTokenTtl);

/** Where the provider's keys are sealed: the context a copied value would not open under elsewhere. */
export const PROVIDER_KEYS_CONTEXT = 'oidc_keys:provider';
/** Cookie keys kept after a rotation: the new one signs, the older ones verify cookies set before. */
const COOKIE_KEYS_KEPT = 3;

const read = async (db: Database) => (await db.select().from(oidcKeys).where(eq(oidcKeys.kind, 'provider')))[0];

/**
 * What the provider signs its tokens with (decision 043): ECDSA on P-256. A signature costs a third of an RSA-2048
 * one, and a sign-in's token exchange and every refresh sign two tokens. Keys of an older version (RS256) keep
 * verifying the access tokens they signed until a rotation drops them; an ID token they signed is no longer taken as
 * a sign-out's hint (see withoutOlderHint).
 */
export const SIGNING_ALG = 'ES256';

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: randomBytes(8).toString('hex'), alg: SIGNING_ALG, use: 'sig' };
}

/** `keys` with a new signing key first: the one that signed until now is retired at `now` and keeps verifying. */
async function withNewSigningKey(keys: ProviderKeys, now: Date): Promise<ProviderKeys> {
  const retired = { ...keys.retired };
  if (keys.signing[0]?.kid) retired[keys.signing[0].kid] = now.toISOString();
  return { ...keys, signing: [await newSigningKey(), ...keys.signing], retired };
}

async function open(secrets: KeyService, value: unknown): Promise<ProviderKeys> {
  return JSON.parse((await secrets.open(value as string, PROVIDER_KEYS_CONTEXT)).toString('utf8')) as ProviderKeys;
}

const seal = async (secrets: KeyService, keys: ProviderKeys) =>
  secrets.seal(JSON.stringify(keys), PROVIDER_KEYS_CONTEXT);

/**
 * The provider's signing and cookie keys: generated on the first start, then read from the database, where they are
 * only ever stored sealed by the key service. Keys stored in the clear by an older version are sealed on the way; keys
 * whose signer is not a SIGNING_ALG key (an older version's) get one that signs from now on.
 */
export async function loadProviderKeys(db: Database, secrets: KeyService): Promise<ProviderKeys> {
  const keys = await storedProviderKeys(db, secrets);
  if (keys.signing[0]?.alg === SIGNING_ALG) return keys;
  // Processes starting at once add one key: the first to lock the row.
  return changeKeys(db, secrets, async (locked) =>
    locked.signing[0]?.alg === SIGNING_ALG ? null : withNewSigningKey(locked, new Date()),
  );
}

/**
 * Changes the stored keys in one transaction, their row locked, so that changes made at once apply one after the
 * other: `change` gets the keys as stored and answers the keys to store instead, or null to keep them. Answers the keys
 * stored at the end.
 */
async function changeKeys(
  db: Database,
  secrets: KeyService,
  change: (keys: ProviderKeys) => Promise<ProviderKeys | null>,
): Promise<ProviderKeys> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(oidcKeys).where(eq(oidcKeys.kind, 'provider')).for('update');
    const keys = await open(secrets, row!.value);
    const next = await change(keys);
    if (next === null) return keys;
    await tx
      .update(oidcKeys)
      .set({ value: await seal(secrets, next) })
      .where(eq(oidcKeys.kind, 'provider'));
    return next;
  });
}

async function storedProviderKeys(db: Database, secrets: KeyService): Promise<ProviderKeys> {
  const existing = await read(db);
  if (existing && isSealed(existing.value)) return open(secrets, existing.value);
  if (existing) {
    const plain = existing.value as ProviderKeys;
    // Only the row still in the clear is replaced: a process that sealed it first wins, with the same keys.
    await db
      .update(oidcKeys)
      .set({ value: await seal(secrets, plain) })
      .where(sql`${oidcKeys.kind} = 'provider' and jsonb_typeof(${oidcKeys.value}) = 'object'`);
    return plain;
  }
  const keys: ProviderKeys = { signing: [await newSigningKey()], cookies: [randomBytes(32).toString('base64url')] };
  // Another process may have written them first: the stored ones win.
  await db
    .insert(oidcKeys)
    .values({ kind: 'provider', value: await seal(secrets, keys) })
    .onConflictDoNothing();
  return open(secrets, (await read(db))!.value);
}

/**
 * Rotates the signing and cookie keys: a new key signs from the next start of each server, the previous ones keep
 * verifying, and signing keys that stopped signing more than `keepRetiredSeconds` ago (the longest lifetime of a token
 * they signed) are dropped. One transaction, the row locked, so two rotations at once apply one after the other.
 */
export async function rotateProviderKeys(
  db: Database,
  secrets: KeyService,
  options: { keepRetiredSeconds: number; now?: Date },
): Promise<{ signingKid: string; dropped: string[] }> {
  await loadProviderKeys(db, secrets);
  const now = options.now ?? new Date();
  const dropped: string[] = [];
  const next = await changeKeys(db, secrets, async (stored) => {
    const keys = await withNewSigningKey(stored, now);
    const retired = { ...keys.retired };
    const kept = keys.signing.filter((key) => {
      const since = key.kid ? retired[key.kid] : undefined;
      const gone = since !== undefined && now.getTime() - Date.parse(since) > options.keepRetiredSeconds * 1000;
      if (gone && key.kid) {
        dropped.push(key.kid);
        delete retired[key.kid];
      }
      return !gone;
    });
    return {
      signing: kept,
      cookies: [randomBytes(32).toString('base64url'), ...keys.cookies].slice(0, COOKIE_KEYS_KEPT),
      retired,
    };
  });
  return { signingKid: next.signing[0]!.kid!, dropped };
}

/** The algorithms of the signing keys: what the API accepts on the embedded provider's tokens. */
const signingAlgorithms = (keys: ProviderKeys): string[] => [
  ...new Set(keys.signing.map((key) => key.alg).filter((alg): alg is string => typeof alg === 'string')),
];

/** The public halves of the signing keys, for the API's own verification of the provider's tokens. */
export const publicSigningKeys = (keys: ProviderKeys): JWK[] =>
  keys.signing.map(({ kty, kid, alg, use, n, e, crv, x, y }) => {
    if (kty === 'EC') return { kty, crv, x, y, kid, alg, use };
    if (kty === 'RSA') return { kty, n, e, kid, alg, use };
    throw new Error(`signing key ${kid} is of type ${kty}: only EC and RSA keys sign`);
  });

/** How soon after a reload an unknown key id may read the keys again (a forged kid must not hammer the database). */
const RELOAD_AFTER_MS = 5_000;

/**
 * The API's verification keys for the embedded provider's tokens, read from the database (no HTTP round trip to
 * itself), and the algorithms it accepts on them (those of the keys at start). A token naming a key id this process
 * has not seen (another server rotated and restarted) reads the keys again, at most every few seconds: only reads
 * them, since any request can ask for it.
 */
export async function providerKeySet(
  db: Database,
  secrets: KeyService,
): Promise<{ keys: JWTVerifyGetKey; algorithms: string[] }> {
  const keySet = (keys: ProviderKeys) => createLocalJWKSet({ keys: publicSigningKeys(keys) });
  const load = async () => keySet(await storedProviderKeys(db, secrets));
  const atStart = await loadProviderKeys(db, secrets);
  let current = keySet(atStart);
  let reloadedAt = 0;
  const keys: JWTVerifyGetKey = async (header, token) => {
    try {
      return await current(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || Date.now() - reloadedAt < RELOAD_AFTER_MS) throw error;
      reloadedAt = Date.now();
      current = await load();
      return current(header, token);
    }
  };
  return { keys, algorithms: signingAlgorithms(atStart) };
}
