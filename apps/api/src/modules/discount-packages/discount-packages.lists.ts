import type { DiscountPackage } from '@ums/contracts';
import { sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { discountPackageProducts, discountPackages, products } from '../../db/schema/index.js';
import { stripedCount } from '../../db/write-stripes.js';
import { float8, jsonObject, key, tableAs, type ListDefinition } from '../lists/list-statements.js';

const PACKAGES = 'dp';
const dp = alias(discountPackages, PACKAGES);
const dpp = alias(discountPackageProducts, 'dpp');
const pr = alias(products, 'pr');

/** The packages as `dp`, the table `packageItem` reads. */
export const packageFrom = tableAs(discountPackages, PACKAGES);
/** The name `packageItem` reads its package by: a CTE of this name (an update's returned rows) stands for the table. */
export const packageItemTable = sql.identifier(PACKAGES);
/** The id of `packageFrom`'s package. */
export const packageKey = dp.discountPackageId;

/** One package as JSON with its products (by name) and their package prices, from `packageFrom`. */
export const packageItem = jsonObject<DiscountPackage>({
  discountPackageId: dp.discountPackageId,
  name: dp.name,
  description: dp.description,
  products: sql<DiscountPackage['products']>`coalesce((
    select json_agg(${jsonObject<DiscountPackage['products'][number]>({
      productId: pr.productId,
      productName: pr.name,
      retailPrice: float8(pr.retailPrice),
      price: float8(dpp.price),
    })} order by lower(${pr.name}), ${pr.name}, ${pr.productId})
    from ${tableAs(discountPackageProducts, 'dpp')} join ${tableAs(products, 'pr')} on ${pr.productId} = ${dpp.productId}
    where ${dpp.discountPackageId} = ${dp.discountPackageId}), '[]'::json)`,
});

export const discountPackageList: ListDefinition<'discountPackage'> = {
  list: 'discountPackage',
  name: 'packages',
  from: packageFrom,
  search: ({ contains }) => sql`${contains(dp.name)} or ${contains(dp.description)}`,
  sorts: {
    name: { keys: [key(dp.name), key(dp.discountPackageId)] },
    discountPackageId: { keys: [key(dp.discountPackageId)] },
  },
  item: packageItem,
  total: stripedCount('discount_packages'),
};
