import { scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash as argon2Hash, verify as argon2Verify, type Algorithm } from '@node-rs/argon2';
import { turns } from '../lib/turns.js';

/** OWASP's current first choice for password storage: argon2id, 19 MiB, 2 iterations, 1 lane. */
// Algorithm is a const enum the package declares ambiently: 2 is its Argon2id.
export const ARGON2 = { algorithm: 2 as Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}$`;

const normalize = (password: string) => password.normalize('NFKC');

/**
 * Password hashes computed at the same time in this process: one core fewer than the machine has (at least one). A
 * burst of sign-ins queues here instead of putting four hashes (libuv's threads) beside the event loop on every core,
 * so the process keeps answering everything else while it works through them (issue 39: 200 sign-ins at once). The
 * price: on two cores one hash runs at a time, so a burst's last sign-ins wait longer than when every core hashed
 * (decision 034). The machine's cores are counted, not a container's CPU quota.
 */
const passwordWork = turns(Math.max(1, availableParallelism() - 1));
const hash = (...args: Parameters<typeof argon2Hash>) => passwordWork.run(() => argon2Hash(...args));
const verify = (...args: Parameters<typeof argon2Verify>) => passwordWork.run(() => argon2Verify(...args));

/** A PHC string: `$argon2id$v=19$m=19456,t=2,p=1$salt$hash`. */
export function hashPassword(password: string): Promise<string> {
  return hash(normalize(password), ARGON2);
}

function deriveScrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(normalize(password), salt, 64, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * Stored in place of a hash when no password may open the account until a new one is set through a mailed link (an
 * email change was undone: whoever made it knew the password). Nothing verifies against it.
 */
export const NO_PASSWORD = '!no-password';

let decoy: Promise<string> | undefined;
/** A hash to spend the same time on when there is none to check against. */
const decoyHash = () => (decoy ??= hashPassword('not-a-password-Decoy1!'));

/** Checks a password against a current argon2id hash or an older `scrypt$N$r$p$salt$hash` one. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored === NO_PASSWORD) {
    // As long as a real check, so the answer's time does not tell that the account's password was voided.
    await verify(await decoyHash(), normalize(password)).catch(() => false);
    return false;
  }
  if (stored.startsWith('$argon2')) return verify(stored, normalize(password)).catch(() => false);
  const [scheme, n, r, p, salt, expectedText] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !expectedText) return false;
  const expected = Buffer.from(expectedText, 'base64url');
  const key = await passwordWork.run(() =>
    deriveScrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) }),
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Whether a stored hash was made with other parameters than today's (it is replaced at the next sign-in). */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(CURRENT_PREFIX);
}
