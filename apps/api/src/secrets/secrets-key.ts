import { randomBytes } from 'node:crypto';
import { access, link, mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  generateKeyEncryptionKeyText,
  parseKeyEncryptionKey,
  SecretsKeyError,
  type KeyEncryptionKey,
} from './key-service.js';

export interface LoadedSecretsKey {
  /** The current key-encryption key: new data keys are wrapped under it. */
  kek: KeyEncryptionKey;
  /** Older keys still accepted to open data keys a rotation has not rewrapped yet. */
  previous: KeyEncryptionKey[];
  /** The file a new key was written to on this start (to say so once); undefined when the key already existed. */
  generatedFile: string | undefined;
}

export interface SecretsKeySource {
  secretsKey: KeyEncryptionKey | undefined;
  secretsKeyPrevious?: KeyEncryptionKey | undefined;
  secretsKeyFile: string;
  /** The embedded default (no SECRETS_KEY_FILE named): a missing file is created. */
  generate: boolean;
}

/** Whether the key file is there (or may be: a file that cannot be checked is left to the read to explain). */
const exists = (file: string) =>
  access(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT',
  );

/** `text` written whole and flushed to a new file of mode 0600 beside `file`, under a name of its own: that name. */
async function writtenBeside(file: string, text: string): Promise<string> {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temporary;
}

/**
 * A new key file, written whole (and flushed) under a name of its own, then linked to its place, which fails if the
 * file is there already: of two processes starting at once, one makes the key and the other reads it, never a file
 * created but not yet written (a plain exclusive create let the other read it empty in between). Answers the file when
 * this process made it.
 */
async function makeKeyFile(file: string): Promise<string | undefined> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const text = `${generateKeyEncryptionKeyText()}\n`;
  const temporary = await writtenBeside(file, text);
  try {
    await link(temporary, file);
    return file;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return undefined;
    // A file system without hard links: an exclusive create.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      return createExclusive(file, text);
    }
    throw error;
  } finally {
    // Its content is the key: it does not stay beside the file. A failure here leaves the error above to be told.
    await unlink(temporary).catch(() => undefined);
  }
}

/** The key file made with an exclusive create; undefined when another process made it first. */
async function createExclusive(file: string, text: string): Promise<string | undefined> {
  try {
    await writeFile(file, text, { flag: 'wx', mode: 0o600 });
    return file;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return undefined;
  }
}

/**
 * The key-encryption keys: SECRETS_KEY (with SECRETS_KEY_PREVIOUS) when given, else the key file, whose first line is
 * the current key and any further lines older ones (`cli secrets rotate` writes them so). With `generate` a missing
 * file is created with mode 0600; a named SECRETS_KEY_FILE must already exist.
 */
export async function loadSecretsKey(options: SecretsKeySource): Promise<LoadedSecretsKey> {
  if (options.secretsKey) {
    return {
      kek: options.secretsKey,
      previous: options.secretsKeyPrevious ? [options.secretsKeyPrevious] : [],
      generatedFile: undefined,
    };
  }
  const file = options.secretsKeyFile;
  const generatedFile = options.generate && !(await exists(file)) ? await makeKeyFile(file) : undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new SecretsKeyError(
      `SECRETS_KEY_FILE (${file}) cannot be read: set SECRETS_KEY or point SECRETS_KEY_FILE to the key file.`,
    );
  }
  const keys = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map(parseKeyEncryptionKey);
  const [kek, ...previous] = keys;
  if (!kek || keys.some((key) => key === undefined)) {
    throw new SecretsKeyError(
      `SECRETS_KEY_FILE (${file}) must hold 32 random bytes written as base64, base64url or hex (e.g. openssl rand -base64 32).`,
    );
  }
  return { kek, previous: previous as KeyEncryptionKey[], generatedFile };
}

/**
 * Puts a new current key at the head of the key file, keeping the one it replaces on the next line (processes that
 * sealed with it keep working until everything is rewrapped). Written to a temporary file and renamed, so a reader
 * sees the old file or the new one, never half of one.
 */
export async function prependKeyToFile(file: string, current: KeyEncryptionKey): Promise<KeyEncryptionKey> {
  const fresh = parseKeyEncryptionKey(generateKeyEncryptionKeyText())!;
  const text = `${fresh.key.toString('base64url')}\n${current.key.toString('base64url')}\n`;
  await rename(await writtenBeside(file, text), file);
  return fresh;
}
