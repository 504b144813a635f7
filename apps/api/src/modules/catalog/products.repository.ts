import { inArray } from 'drizzle-orm';
import { products } from '../../db/schema/index.js';
import type { Queryable } from '../audit/audit.js';

/** The products the catalog's writers refer to: only what they ask of them (the catalog service owns the rest). */
export const productRepository = {
  /** Which of `ids` name no product (each once, in the order given). */
  async missingIds(q: Queryable, ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const found = await q.select({ id: products.productId }).from(products).where(inArray(products.productId, unique));
    return unique.filter((id) => !found.some((row) => row.id === id));
  },
};
