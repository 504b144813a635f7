import type { Product } from '@ums/contracts';
import { alias } from 'drizzle-orm/pg-core';
import { products } from '../../db/schema/index.js';
import { stripedCount } from '../../db/write-stripes.js';
import { float8, jsonObject, key, tableAs, type ListDefinition } from '../lists/list-statements.js';

const p = alias(products, 'p');

export const productList: ListDefinition<'product'> = {
  list: 'product',
  name: 'products',
  from: tableAs(products, 'p'),
  search: ({ contains }) => contains(p.name),
  sorts: {
    name: { keys: [key(p.name), key(p.productId)] },
    productId: { keys: [key(p.productId)] },
    retailPrice: { keys: [key(p.retailPrice), key(p.productId)] },
  },
  item: jsonObject<Product>({
    productId: p.productId,
    name: p.name,
    retailPrice: float8(p.retailPrice),
    imageUrl: p.imageUrl,
  }),
  total: stripedCount('products'),
};
