import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../db/client.js';
import { oidcKeys } from '../db/schema/index.js';

interface ProviderKeys {
  signing: JWK[];
  cookies: string[];
}

/** The provider's signing and cookie keys: generated on the first start, then read from the database. */
export async function loadProviderKeys(db: Database): Promise<ProviderKeys> {
  const read = async () => (await db.select().from(oidcKeys).where(eq(oidcKeys.kind, 'provider')))[0];
  const existing = await read();
  if (existing) return existing.value as ProviderKeys;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const keys: ProviderKeys = {
    signing: [{ ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' }],
    cookies: [randomBytes(32).toString('base64url')],
  };
  // Another process may have written them first: the stored ones win.
  await db.insert(oidcKeys).values({ kind: 'provider', value: keys }).onConflictDoNothing();
  return (await read())!.value as ProviderKeys;
}
