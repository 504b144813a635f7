import fs from 'node:fs/promises';
import { AUDIT_ENTITIES, catalogSchema, type CatalogRefreshResult } from '@ums/contracts';
import { notInArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { moneyText } from '../../db/money.js';
import { products } from '../../db/schema/index.js';
import { HttpError } from '../../plugins/http-errors.js';
import { appendAudit, catalogTransaction, type Actor } from '../audit/audit.js';

export async function readCatalogFile(file: string) {
  const text = await fs.readFile(file, 'utf8').catch((error: Error) => {
    throw new HttpError(502, `The product catalog could not be read (${file}): ${error.message}`);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(502, `The product catalog (${file}) is not valid JSON`);
  }
  const parsed = catalogSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new HttpError(502, `The product catalog (${file}) is invalid at ${first?.path.join('.')}: ${first?.message}`);
  }
  return parsed.data;
}

export function createCatalogService({ db, catalogFile }: { db: Database; catalogFile: string }) {
  return {
    /**
     * Upserts every catalog entry by id; removes products gone from the catalog unless something still refers to
     * them. Audited with its counts (a refresh is not reverted: the catalog file is its source).
     */
    async refresh(actor: Actor): Promise<CatalogRefreshResult & { removed: number }> {
      const entries = await readCatalogFile(catalogFile);
      return catalogTransaction(db, async (tx) => {
        const before = await tx.select({ id: products.productId }).from(products);
        const existing = new Set(before.map((r) => r.id));
        if (entries.length > 0) {
          await tx
            .insert(products)
            .values(
              entries.map((e) => ({
                productId: e.productId,
                name: e.name,
                retailPrice: moneyText(e.retailPrice),
                imageUrl: e.imageUrl ?? null,
              })),
            )
            .onConflictDoUpdate({
              target: products.productId,
              set: {
                name: sql`excluded.name`,
                retailPrice: sql`excluded.retail_price`,
                imageUrl: sql`excluded.image_url`,
                updatedAt: sql`now()`,
              },
            });
        }
        const ids = entries.map((e) => e.productId);
        const removed = await tx
          .delete(products)
          .where(
            sql`${ids.length > 0 ? notInArray(products.productId, ids) : sql`true`}
              and not exists (select 1 from memberships m where m.product_id = ${products.productId})
              and not exists (select 1 from promotional_products p where p.product_id = ${products.productId})
              and not exists (select 1 from discount_package_products d where d.product_id = ${products.productId})
              and not exists (select 1 from subscription_products s where s.product_id = ${products.productId})`,
          )
          .returning({ id: products.productId });
        const added = ids.filter((id) => !existing.has(id)).length;
        const result = {
          added,
          updated: ids.length - added,
          removed: removed.length,
          total: before.length + added - removed.length,
        };
        await appendAudit(tx, {
          actor,
          action: 'catalog-refreshed',
          entity: 'catalog',
          entityId: 'products',
          before: { total: before.length },
          after: result,
          label: AUDIT_ENTITIES.catalog,
        });
        return result;
      });
    },
  };
}
