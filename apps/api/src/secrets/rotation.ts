import { eq, ne } from 'drizzle-orm';
import type { AppConfig } from '../config/env.js';
import type { Database } from '../db/client.js';
import { dataKeys } from '../db/schema/index.js';
import { SecretsKeyError, unwrapDataKey, wrapDataKey, type KeyEncryptionKey } from './key-service.js';
import { loadSecretsKey, prependKeyToFile } from './secrets-key.js';
import { secretsKeySource } from './secrets.js';

export interface SecretsRotation {
  /** The id of the key everything is wrapped under now (never the key itself). */
  kekId: string;
  rewrapped: number;
  /** The key file a new key was written to; undefined when SECRETS_KEY named the new key. */
  keyFile: string | undefined;
}

/**
 * Rotates the key-encryption key while servers serve. With the key file (the embedded default or SECRETS_KEY_FILE) a
 * new key is generated and put first in the file, the old one kept on the next line; with SECRETS_KEY the operator
 * has already set the new key there and the old one in SECRETS_KEY_PREVIOUS. Then every data key is rewrapped under
 * the new key in one transaction: sealed values keep their data key, so nothing a server holds stops opening, and a
 * copy of the old key opens nothing stored from now on.
 */
export async function rotateSecretsKey(config: AppConfig, db: Database): Promise<SecretsRotation> {
  const source = secretsKeySource(config);
  const loaded = await loadSecretsKey(source);
  let target: KeyEncryptionKey;
  let keyFile: string | undefined;
  let from: KeyEncryptionKey[];
  if (config.secretsKey) {
    if (!config.secretsKeyPrevious) {
      throw new SecretsKeyError(
        'SECRETS_KEY is set: put the new key in SECRETS_KEY and the one it replaces in SECRETS_KEY_PREVIOUS (on every server), then run this again.',
      );
    }
    target = loaded.kek;
    from = loaded.previous;
  } else {
    target = await prependKeyToFile(source.secretsKeyFile, loaded.kek);
    keyFile = source.secretsKeyFile;
    from = [loaded.kek, ...loaded.previous];
  }
  const rewrapped = await db.transaction(async (tx) => {
    const stale = await tx.select().from(dataKeys).where(ne(dataKeys.kekId, target.id)).for('update');
    for (const stored of stale) {
      const key = unwrapDataKey(stored, from);
      await tx
        .update(dataKeys)
        .set({ kekId: target.id, wrapped: wrapDataKey(stored.id, key, target) })
        .where(eq(dataKeys.id, stored.id));
    }
    return stale.length;
  });
  return { kekId: target.id, rewrapped, keyFile };
}
