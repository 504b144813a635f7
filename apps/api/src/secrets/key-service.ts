import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { createBoundedCache } from '../lib/bounded-cache.js';

/**
 * Envelope encryption for the secrets we store. A key-encryption key (KEK, from SECRETS_KEY or secrets.key) wraps
 * random 256-bit data keys; values are sealed under a data key. Both layers are AES-256-GCM from Node's crypto.
 * A sealed value names its data key and that key's KEK, so rotation can find what to re-encrypt, and the caller's
 * context is additional data: a value copied into another column or row does not open there.
 */

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED_PREFIX = 'ums-sealed-v1';

/** A key-encryption key: the 32 secret bytes and an id derived from them that reveals nothing about them. */
export interface KeyEncryptionKey {
  id: string;
  key: Buffer;
}

/** A data key as stored: its id, the id of the KEK that wrapped it, and the wrapped bytes (iv, ciphertext, tag). */
export interface WrappedDataKey {
  id: string;
  kekId: string;
  wrapped: string;
  createdAt: Date;
}

/** Where wrapped data keys live (a table in production), so every process can find a data key by its id. */
export interface DataKeyStore {
  get(id: string): Promise<WrappedDataKey | undefined>;
  /** The newest data key wrapped under the given KEK, to seal new values with. */
  newest(kekId: string): Promise<WrappedDataKey | undefined>;
  /** Stores a new data key; two processes adding one at once is fine, each value names the key it used. */
  add(key: WrappedDataKey): Promise<void>;
  /** Replaces a data key's wrapping (after a KEK rotation); the key itself, and so every value, stays the same. */
  rewrap(id: string, kekId: string, wrapped: string): Promise<void>;
}

export interface KeyService {
  /** Encrypts a value; `context` (e.g. 'oidc_keys:provider') must be given again to open it. */
  seal(plaintext: Buffer | string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<Buffer>;
  /** The KEK id a sealed value's data key was wrapped under when it was sealed. */
  describe(sealed: string): { kekId: string; dataKeyId: string };
}

export class SecretsKeyError extends Error {}

/** Parses a KEK written as 32 bytes in base64, base64url or hex; undefined when it is none of those. */
export function parseKeyEncryptionKey(text: string): KeyEncryptionKey | undefined {
  const trimmed = text.trim();
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) bytes = Buffer.from(trimmed, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) bytes = Buffer.from(trimmed.replace(/=$/, ''), 'base64url');
  if (bytes?.length !== KEY_BYTES) return undefined;
  return { id: keyId(bytes), key: bytes };
}

/** A new random KEK, as the text written to secrets.key. */
export function generateKeyEncryptionKeyText(): string {
  return randomBytes(KEY_BYTES).toString('base64url');
}

// An HMAC of a fixed label under the key: equal keys get equal ids, and the id cannot be turned back into the key.
function keyId(key: Buffer): string {
  return createHmac('sha256', key).update('ums key id').digest('hex').slice(0, 16);
}

function encrypt(key: Buffer, plaintext: Buffer, additionalData: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(additionalData, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

function decrypt(key: Buffer, encoded: string, additionalData: string): Buffer {
  const raw = Buffer.from(encoded, 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretsKeyError('A sealed value is too short to be one.');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(additionalData, 'utf8'));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SecretsKeyError('A sealed value does not open with its key: it was changed or belongs elsewhere.');
  }
}

const wrapContext = (dataKeyId: string, kekId: string) => `data-key:${dataKeyId}:${kekId}`;

/**
 * The key service. `keks` lists the current KEK first, then older ones still accepted while a rotation runs.
 * Unwrapped data keys are kept in memory only; a data key added by another process is read from the store by id.
 */
export function createKeyService(options: {
  keks: KeyEncryptionKey[];
  store: DataKeyStore;
  /**
   * Reads the keys again (the key file), for a data key wrapped under a KEK this process does not know yet: another
   * process rotated while this one served.
   */
  reloadKeks?: () => Promise<KeyEncryptionKey[]>;
}): KeyService {
  const [current] = options.keks;
  if (!current) throw new SecretsKeyError('The key service needs a key-encryption key.');
  const keks = new Map(options.keks.map((k) => [k.id, k.key]));
  // One data key per rotation: a thousand is years of them; one evicted is read from the store and unwrapped again.
  const unwrapped = createBoundedCache<Buffer>({
    maxBytes: 1024 * 1024,
    maxEntries: 1000,
    bytesOf: (key) => key.length,
  });
  let sealingKey: Promise<{ id: string; kekId: string; key: Buffer }> | undefined;

  async function unwrap(stored: WrappedDataKey): Promise<Buffer> {
    if (!keks.has(stored.kekId) && options.reloadKeks) {
      for (const kek of await options.reloadKeks()) keks.set(kek.id, kek.key);
    }
    const kek = keks.get(stored.kekId);
    if (!kek)
      throw new SecretsKeyError(
        `The stored secrets are sealed under another secrets key than this server's (SECRETS_KEY, SECRETS_KEY_PREVIOUS or the key file): start it with the key this database was set up with.`,
      );
    return decrypt(kek, stored.wrapped, wrapContext(stored.id, stored.kekId));
  }

  async function dataKey(id: string): Promise<Buffer> {
    const cached = unwrapped.get(id);
    if (cached) return cached;
    const stored = await options.store.get(id);
    if (!stored) throw new SecretsKeyError(`Data key ${id} is not in the key store.`);
    const key = await unwrap(stored);
    unwrapped.set(id, key);
    return key;
  }

  async function currentSealingKey() {
    const newest = await options.store.newest(current!.id);
    if (newest) return { id: newest.id, kekId: newest.kekId, key: await dataKey(newest.id) };
    const key = randomBytes(KEY_BYTES);
    const id = randomBytes(8).toString('hex');
    const wrapped = encrypt(current!.key, key, wrapContext(id, current!.id));
    await options.store.add({ id, kekId: current!.id, wrapped, createdAt: new Date() });
    unwrapped.set(id, key);
    return { id, kekId: current!.id, key };
  }

  function parse(sealed: string) {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== SEALED_PREFIX) throw new SecretsKeyError('This is not a sealed value.');
    return { kekId: parts[1]!, dataKeyId: parts[2]!, body: parts[3]! };
  }

  // The ids are in the additional data too, so a value cannot be relabelled to another key.
  const valueContext = (context: string, kekId: string, dataKeyId: string) => `${context}\u0000${kekId}:${dataKeyId}`;

  return {
    async seal(plaintext, context) {
      sealingKey ??= currentSealingKey().catch((error: unknown) => {
        sealingKey = undefined;
        throw error;
      });
      const { id, kekId, key } = await sealingKey;
      const bytes = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
      return [SEALED_PREFIX, kekId, id, encrypt(key, bytes, valueContext(context, kekId, id))].join('.');
    },
    async open(sealed, context) {
      const { kekId, dataKeyId, body } = parse(sealed);
      return decrypt(await dataKey(dataKeyId), body, valueContext(context, kekId, dataKeyId));
    },
    describe(sealed) {
      const { kekId, dataKeyId } = parse(sealed);
      return { kekId, dataKeyId };
    },
  };
}

/** True when a value looks sealed, e.g. to tell an old plaintext row from a sealed one. */
export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(`${SEALED_PREFIX}.`);
}

/**
 * Rewraps every data key under `from` with `to`, leaving the keys and so every sealed value as they are: processes
 * still holding `from` keep opening values from their memory, and a process started with `to` reads the new wrapping.
 */
export async function rewrapDataKeys(
  keys: WrappedDataKey[],
  from: KeyEncryptionKey,
  to: KeyEncryptionKey,
  store: DataKeyStore,
): Promise<number> {
  let count = 0;
  for (const stored of keys) {
    if (stored.kekId !== from.id) continue;
    const key = decrypt(from.key, stored.wrapped, wrapContext(stored.id, from.id));
    await store.rewrap(stored.id, to.id, encrypt(to.key, key, wrapContext(stored.id, to.id)));
    count += 1;
  }
  return count;
}

/** A data key's bytes, unwrapped with whichever of `keks` wrapped it: for a sealed backup, which carries them open. */
export function unwrapDataKey(stored: WrappedDataKey, keks: KeyEncryptionKey[]): Buffer {
  const kek = keks.find((k) => k.id === stored.kekId);
  if (!kek) {
    throw new SecretsKeyError(
      `Data key ${stored.id} is wrapped under a key-encryption key that is not configured (SECRETS_KEY, SECRETS_KEY_PREVIOUS or the key file).`,
    );
  }
  return decrypt(kek.key, stored.wrapped, wrapContext(stored.id, kek.id));
}

/** Wraps a data key's bytes under a KEK: a restored backup's data keys, sealed again under this machine's key. */
export function wrapDataKey(id: string, key: Buffer, kek: KeyEncryptionKey): string {
  return encrypt(kek.key, key, wrapContext(id, kek.id));
}
