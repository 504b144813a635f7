import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { whenDone } from '../../test/when-done.js';
import { parseKeyEncryptionKey } from './key-service.js';
import { loadSecretsKey } from './secrets-key.js';

/** A throw-away folder, removed with the key files written into it when the test is over. */
const folder = async () => {
  const made = await mkdtemp(path.join(tmpdir(), 'ums-secrets-key-'));
  whenDone(() => rm(made, { recursive: true, force: true }));
  return made;
};

describe('loadSecretsKey', () => {
  it('generates DATA_DIR/secrets.key with mode 0600 on the first start and reads the same key afterwards', async () => {
    const file = path.join(await folder(), 'data', 'secrets.key');
    const first = await loadSecretsKey({ secretsKey: undefined, secretsKeyFile: file, generate: true });
    expect(first.generatedFile).toBe(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o077).toBe(0);
    const second = await loadSecretsKey({ secretsKey: undefined, secretsKeyFile: file, generate: true });
    expect(second.generatedFile).toBeUndefined();
    expect(second.kek.id).toBe(first.kek.id);
    expect(parseKeyEncryptionKey(await readFile(file, 'utf8'))?.id).toBe(first.kek.id);
  });

  it('gives two processes starting at once the same key, never a key file half written', async () => {
    // Many times over: the reader that loses the race reads the file the instant the winner makes it.
    for (let round = 0; round < 100; round++) {
      const file = path.join(await folder(), 'secrets.key');
      const load = () => loadSecretsKey({ secretsKey: undefined, secretsKeyFile: file, generate: true });
      const [a, b, c, d] = await Promise.all([load(), load(), load(), load()]);
      expect(new Set([a, b, c, d].map((x) => x.kek.id)).size).toBe(1);
      expect([a, b, c, d].filter((x) => x.generatedFile)).toHaveLength(1);
      expect(await readdir(path.dirname(file))).toEqual(['secrets.key']);
    }
  });

  it('prefers SECRETS_KEY and writes no file', async () => {
    const file = path.join(await folder(), 'secrets.key');
    const kek = parseKeyEncryptionKey(Buffer.alloc(32, 7).toString('hex'))!;
    expect((await loadSecretsKey({ secretsKey: kek, secretsKeyFile: file, generate: true })).kek).toBe(kek);
    await expect(stat(file)).rejects.toThrow();
  });

  it('refuses a missing or malformed SECRETS_KEY_FILE in one sentence naming the variable, without echoing the file', async () => {
    const dir = await folder();
    const missing = path.join(dir, 'missing.key');
    await expect(loadSecretsKey({ secretsKey: undefined, secretsKeyFile: missing, generate: false })).rejects.toThrow(
      /^SECRETS_KEY_FILE .* cannot be read/,
    );
    const malformed = path.join(dir, 'bad.key');
    await writeFile(malformed, 'not-a-key-but-secret-text\n');
    const error = await loadSecretsKey({ secretsKey: undefined, secretsKeyFile: malformed, generate: false }).then(
      () => new Error('a malformed key file was accepted'),
      (e: unknown) => e as Error,
    );
    expect(error.message).toMatch(/^SECRETS_KEY_FILE .* must hold 32 random bytes/);
    expect(error.message).not.toContain('secret-text');
  });
});
