import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MIN_BACKUP_PASSPHRASE_LENGTH } from '../config/env.js';
import { BackupError } from './backup.js';

// A sealed backup is the backup's gzip stream encrypted with AES-256-GCM under a key derived from the operator's
// passphrase with scrypt: a first line naming the format, a JSON line with the key's derivation (salt, cost) and a
// check value, then the ciphertext and the 16-byte authentication tag. Both lines are the cipher's additional data,
// so changing them breaks the seal too.

export const SEALED_BACKUP_MAGIC = 'UMS-SEALED-BACKUP 1\n';
const TAG_BYTES = 16;
/** scrypt at 32 MiB and about a tenth of a second here: each guess at a passphrase costs an attacker as much. */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const MAX_MEMORY = 64 * 1024 * 1024;
const MAX_HEADER_BYTES = 4096;

interface SealParameters {
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  iv: string;
  /** Tells a wrong passphrase apart from a damaged file before anything is read or changed. */
  check: string;
}

export const BACKUP_MESSAGES = {
  passphraseMissing: `Set BACKUP_PASSPHRASE (at least ${MIN_BACKUP_PASSPHRASE_LENGTH} characters) to seal the backup: it holds every member's data and the sign-in keys.`,
  sealedNeedsPassphrase:
    'This backup is sealed: set BACKUP_PASSPHRASE to the passphrase it was written with, then restore it again.',
  wrongPassphrase:
    'BACKUP_PASSPHRASE does not open this backup: set it to the passphrase the backup was written with. Nothing was changed.',
  damaged:
    'The sealed backup is damaged or was changed after it was written (its seal does not match). Nothing was changed.',
  folderWritableByOthers: (folder: string, mode: number) =>
    `Other users can write to ${folder} (mode ${mode.toString(8)}): write the backup into a folder only you can write to.`,
} as const;

function deriveKey(passphrase: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(passphrase, salt, 32, { ...cost, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

const keyCheck = (key: Buffer) => createHmac('sha256', key).update('ums backup key check').digest().subarray(0, 16);

/** The stream a backup is written into: it writes the seal's header, the ciphertext, then the tag. */
export async function sealingStream(passphrase: string): Promise<Transform> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = await deriveKey(passphrase, salt, COST);
  const parameters: SealParameters = {
    kdf: 'scrypt',
    ...COST,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    check: keyCheck(key).toString('base64'),
  };
  const header = Buffer.from(`${SEALED_BACKUP_MAGIC}${JSON.stringify(parameters)}\n`);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(header);
  let started = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!started) {
        started = true;
        this.push(header);
      }
      done(null, cipher.update(chunk));
    },
    flush(done) {
      if (!started) this.push(header);
      this.push(cipher.final());
      done(null, cipher.getAuthTag());
    },
  });
}

/** Whether the file is a sealed backup (an older backup is plain gzip). */
export async function isSealedBackup(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r');
  try {
    const start = Buffer.alloc(SEALED_BACKUP_MAGIC.length);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    return bytesRead === start.length && start.toString('latin1') === SEALED_BACKUP_MAGIC;
  } finally {
    await handle.close();
  }
}

/**
 * Opens a sealed backup for reading: the passphrase is checked first, then the whole file's seal, so a wrong
 * passphrase or a changed file is refused before the database is touched. The answer is the backup's gzip stream.
 */
export async function openSealedBackup(file: string, passphrase: string | undefined): Promise<Readable> {
  if (!passphrase) throw new BackupError(BACKUP_MESSAGES.sealedNeedsPassphrase);
  const { size } = await fs.stat(file);
  const handle = await fs.open(file, 'r');
  let head: Buffer;
  try {
    head = Buffer.alloc(Math.min(size, MAX_HEADER_BYTES));
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const end = head.indexOf('\n', SEALED_BACKUP_MAGIC.length);
  let parameters: SealParameters;
  try {
    if (end < 0) throw new Error('no header');
    parameters = JSON.parse(head.subarray(SEALED_BACKUP_MAGIC.length, end).toString('utf8')) as SealParameters;
  } catch {
    throw new BackupError(BACKUP_MESSAGES.damaged);
  }
  const header = head.subarray(0, end + 1);
  const body = { start: header.length, end: size - TAG_BYTES - 1 };
  if (parameters.kdf !== 'scrypt' || body.end < body.start) throw new BackupError(BACKUP_MESSAGES.damaged);
  const key = await deriveKey(passphrase, Buffer.from(parameters.salt, 'base64'), parameters).catch(() => {
    throw new BackupError(BACKUP_MESSAGES.damaged);
  });
  const check = Buffer.from(parameters.check, 'base64');
  const expected = keyCheck(key);
  if (check.length !== expected.length || !timingSafeEqual(check, expected)) {
    throw new BackupError(BACKUP_MESSAGES.wrongPassphrase);
  }
  const tag = Buffer.alloc(TAG_BYTES);
  const tail = await fs.open(file, 'r');
  try {
    await tail.read(tag, 0, TAG_BYTES, size - TAG_BYTES);
  } finally {
    await tail.close();
  }
  const decipher = () =>
    createDecipheriv('aes-256-gcm', key, Buffer.from(parameters.iv, 'base64')).setAAD(header).setAuthTag(tag);
  const ciphertext = () => createReadStream(file, body);

  // First the whole seal: a file changed anywhere is refused before a single row is read from it.
  const verify = decipher();
  verify.resume();
  await pipeline(ciphertext(), verify).catch(() => {
    throw new BackupError(BACKUP_MESSAGES.damaged);
  });
  const opened = decipher();
  ciphertext()
    .on('error', (error) => opened.destroy(error))
    .pipe(opened);
  return opened;
}

/** A backup file is written only into a folder no other user can write to (they could swap or read it). */
export async function assertPrivateFolder(folder: string): Promise<void> {
  const { mode } = await fs.stat(folder);
  if ((mode & 0o022) !== 0) throw new BackupError(BACKUP_MESSAGES.folderWritableByOthers(folder, mode & 0o777));
}
