import { and, desc, eq } from 'drizzle-orm';
import type { AppConfig } from '../config/env.js';
import type { Database } from '../db/client.js';
import { dataKeys } from '../db/schema/index.js';
import { createKeyService, type DataKeyStore, type KeyService } from './key-service.js';
import { loadSecretsKey, type LoadedSecretsKey } from './secrets-key.js';

/** Data keys in PostgreSQL (table data_keys), wrapped: every process finds any data key by the id a value names. */
export function postgresDataKeyStore(db: Database): DataKeyStore {
  return {
    async get(id) {
      const [row] = await db.select().from(dataKeys).where(eq(dataKeys.id, id));
      return row;
    },
    async newest(kekId) {
      const [row] = await db
        .select()
        .from(dataKeys)
        .where(eq(dataKeys.kekId, kekId))
        .orderBy(desc(dataKeys.createdAt))
        .limit(1);
      return row;
    },
    async add(key) {
      await db.insert(dataKeys).values(key);
    },
    async rewrap(id, kekId, wrapped) {
      await db
        .update(dataKeys)
        .set({ kekId, wrapped })
        .where(and(eq(dataKeys.id, id)));
    },
  };
}

/** Where the key-encryption key comes from, as configured: SECRETS_KEY, SECRETS_KEY_FILE, or DATA_DIR/secrets.key. */
export function secretsKeySource(config: AppConfig) {
  return {
    secretsKey: config.secretsKey,
    secretsKeyPrevious: config.secretsKeyPrevious,
    secretsKeyFile: config.secretsKeyFile,
    // Only the embedded default creates its key: a key file the operator named must already be there.
    generate: config.secretsKey === undefined && !config.secretsKeyFileNamed,
  };
}

export interface Secrets {
  keys: KeyService;
  loaded: LoadedSecretsKey;
}

/** Loads the key-encryption key (creating the embedded default's on the first start) and the key service on it. */
export async function openSecrets(config: AppConfig, db: Database): Promise<Secrets> {
  const source = secretsKeySource(config);
  const loaded = await loadSecretsKey(source);
  const keys = createKeyService({
    keks: [loaded.kek, ...loaded.previous],
    store: postgresDataKeyStore(db),
    reloadKeks: async () => {
      const again = await loadSecretsKey({ ...source, generate: false });
      return [again.kek, ...again.previous];
    },
  });
  return { keys, loaded };
}
