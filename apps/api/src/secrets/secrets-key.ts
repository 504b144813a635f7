import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  generateKeyEncryptionKeyText,
  parseKeyEncryptionKey,
  SecretsKeyError,
  type KeyEncryptionKey,
} from './key-service.js';

export interface LoadedSecretsKey {
  kek: KeyEncryptionKey;
  /** The file a new key was written to on this start (to say so once); undefined when the key already existed. */
  generatedFile: string | undefined;
}

/**
 * The key-encryption key: SECRETS_KEY when given, else the key file. With `generate` (the embedded default, no
 * SECRETS_KEY_FILE set) a missing file is created with mode 0600; a named SECRETS_KEY_FILE must already exist.
 */
export async function loadSecretsKey(options: {
  secretsKey: KeyEncryptionKey | undefined;
  secretsKeyFile: string;
  generate: boolean;
}): Promise<LoadedSecretsKey> {
  if (options.secretsKey) return { kek: options.secretsKey, generatedFile: undefined };
  const file = options.secretsKeyFile;
  let generatedFile: string | undefined;
  if (options.generate) {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      // 'wx': of two processes starting at once, one writes the key and the other reads it.
      await writeFile(file, `${generateKeyEncryptionKeyText()}\n`, { flag: 'wx', mode: 0o600 });
      generatedFile = file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new SecretsKeyError(
      `SECRETS_KEY_FILE (${file}) cannot be read: set SECRETS_KEY or point SECRETS_KEY_FILE to the key file.`,
    );
  }
  const kek = parseKeyEncryptionKey(text);
  if (!kek) {
    throw new SecretsKeyError(
      `SECRETS_KEY_FILE (${file}) must hold 32 random bytes written as base64, base64url or hex (e.g. openssl rand -base64 32).`,
    );
  }
  return { kek, generatedFile };
}
