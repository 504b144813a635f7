import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createKeyService,
  generateKeyEncryptionKeyText,
  isSealed,
  parseKeyEncryptionKey,
  rewrapDataKeys,
  type DataKeyStore,
  type KeyEncryptionKey,
  type WrappedDataKey,
} from './key-service.js';

// One shared store stands for the database table that several API processes read.
function memoryStore(): DataKeyStore & { rows: Map<string, WrappedDataKey> } {
  const rows = new Map<string, WrappedDataKey>();
  return {
    rows,
    async get(id) {
      return rows.get(id);
    },
    async newest(kekId) {
      return [...rows.values()].filter((k) => k.kekId === kekId).at(-1);
    },
    async add(key) {
      rows.set(key.id, key);
    },
    async rewrap(id, kekId, wrapped) {
      const row = rows.get(id)!;
      rows.set(id, { ...row, kekId, wrapped });
    },
  };
}

const newKek = (): KeyEncryptionKey => parseKeyEncryptionKey(generateKeyEncryptionKeyText())!;

describe('parseKeyEncryptionKey', () => {
  it('accepts 32 bytes as hex, base64 and base64url and gives each the same id', () => {
    const bytes = randomBytes(32);
    const ids = [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')].map(
      (text) => parseKeyEncryptionKey(`${text}\n`)?.id,
    );
    expect(ids[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(1);
  });

  it('refuses other lengths and other text', () => {
    for (const text of ['', 'secret', randomBytes(16).toString('hex'), randomBytes(31).toString('base64url')]) {
      expect(parseKeyEncryptionKey(text)).toBeUndefined();
    }
  });

  it('gives an id that does not contain the key', () => {
    const text = generateKeyEncryptionKeyText();
    const kek = parseKeyEncryptionKey(text)!;
    expect(kek.key.toString('hex')).not.toContain(kek.id);
  });
});

describe('createKeyService', () => {
  it('seals a value so that neither it nor its data key appears readable in what is stored', async () => {
    const store = memoryStore();
    const service = createKeyService({ keks: [newKek()], store });
    const secret = '{"d":"private-member-of-a-jwk"}';
    const sealed = await service.seal(secret, 'oidc_keys:provider');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('private-member');
    expect(JSON.stringify([...store.rows.values()])).not.toContain('private-member');
    expect((await service.open(sealed, 'oidc_keys:provider')).toString('utf8')).toBe(secret);
  });

  it('names the data key and KEK in each sealed value', async () => {
    const kek = newKek();
    const store = memoryStore();
    const sealed = await createKeyService({ keks: [kek], store }).seal('x', 'c');
    const [dataKeyId] = store.rows.keys();
    expect(createKeyService({ keks: [kek], store }).describe(sealed)).toEqual({ kekId: kek.id, dataKeyId });
  });

  it('refuses to open a value under another context, so a copied value does not open in another place', async () => {
    const service = createKeyService({ keks: [newKek()], store: memoryStore() });
    const sealed = await service.seal('secret', 'oidc_keys:provider');
    await expect(service.open(sealed, 'totp:account-1')).rejects.toThrow(/does not open/);
  });

  it('refuses a changed value and a value relabelled to another key', async () => {
    const service = createKeyService({ keks: [newKek()], store: memoryStore() });
    const sealed = await service.seal('secret', 'c');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[body.length - 20]! ^= 1;
    await expect(service.open([...parts.slice(0, 3), body.toString('base64url')].join('.'), 'c')).rejects.toThrow();
    await expect(service.open([parts[0], 'ffffffffffffffff', ...parts.slice(2)].join('.'), 'c')).rejects.toThrow();
  });

  it('does not open anything with a different KEK', async () => {
    const store = memoryStore();
    const sealed = await createKeyService({ keks: [newKek()], store }).seal('secret', 'c');
    await expect(createKeyService({ keks: [newKek()], store }).open(sealed, 'c')).rejects.toThrow(
      /sealed under another secrets key/,
    );
  });

  it('lets a second process open what the first sealed, finding the data key in the shared store by id', async () => {
    const kek = newKek();
    const store = memoryStore();
    const sealed = await createKeyService({ keks: [kek], store }).seal('secret', 'c');
    expect((await createKeyService({ keks: [kek], store }).open(sealed, 'c')).toString()).toBe('secret');
  });

  it('keeps every value opening after the data keys are rewrapped under a new KEK, in old and new processes', async () => {
    const [oldKek, newKekValue] = [newKek(), newKek()];
    const store = memoryStore();
    const running = createKeyService({ keks: [oldKek], store });
    const sealed = await running.seal('secret', 'c');
    expect(await rewrapDataKeys([...store.rows.values()], oldKek, newKekValue, store)).toBe(1);
    expect([...store.rows.values()].every((k) => k.kekId === newKekValue.id)).toBe(true);
    // The running process holds the data key in memory; a new process has only the new KEK.
    expect((await running.open(sealed, 'c')).toString()).toBe('secret');
    expect((await createKeyService({ keks: [newKekValue], store }).open(sealed, 'c')).toString()).toBe('secret');
    await expect(createKeyService({ keks: [oldKek], store }).open(sealed, 'c')).rejects.toThrow(
      /sealed under another secrets key/,
    );
  });
});
