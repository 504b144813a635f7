import type { Membership, PromotionalProduct } from '@ums/contracts';
import { sql, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { discountPackages, memberships, products, promotionalProducts } from '../../db/schema/index.js';
import { stripedCount } from '../../db/write-stripes.js';
import { float8, jsonObject, key, scopeValue, tableAs, type ListDefinition } from '../lists/list-statements.js';

const MEMBERSHIPS = 'm';
const m = alias(memberships, MEMBERSHIPS);
const p = alias(products, 'p');
const dp = alias(discountPackages, 'dp');
const pp = alias(promotionalProducts, 'pp');
const pr = alias(products, 'pr');

/** One membership as JSON: product, package name and promotional products (by name), from `membershipFrom`. */
export const membershipItem = jsonObject<Membership>({
  membershipId: m.membershipId,
  name: m.name,
  description: m.description,
  productId: m.productId,
  productName: p.name,
  productRetailPrice: float8(p.retailPrice),
  discountPackageId: m.discountPackageId,
  discountPackageName: dp.name,
  numberOfFreeEligibleItems: m.numberOfFreeEligibleItems,
  membershipLengthInMonths: m.membershipLengthInMonths,
  promotionalProducts: sql<Membership['promotionalProducts']>`coalesce((
    select json_agg(${jsonObject<Membership['promotionalProducts'][number]>({ productId: pp.productId, name: pr.name })}
                    order by lower(${pr.name}), ${pr.name}, ${pr.productId})
    from ${tableAs(promotionalProducts, 'pp')} join ${tableAs(products, 'pr')} on ${pr.productId} = ${pp.productId}
    where ${pp.membershipId} = ${m.membershipId}), '[]'::json)`,
});

/** `membershipItem`'s tables, its memberships being `rows` named `m`. */
const membershipsFrom = (rows: SQLWrapper) => sql`${rows}
  join ${tableAs(products, 'p')} on ${p.productId} = ${m.productId}
  left join ${tableAs(discountPackages, 'dp')} on ${dp.discountPackageId} = ${m.discountPackageId}`;

export const membershipFrom = membershipsFrom(tableAs(memberships, MEMBERSHIPS));

/** The name `membershipItem` reads its membership by: a CTE of this name (an update's returned rows) stands for it. */
export const membershipItemTable = sql.identifier(MEMBERSHIPS);
/** `membershipFrom` over the rows of a CTE named `membershipItemTable`. */
export const membershipFromUpdated = membershipsFrom(membershipItemTable);

/** The id of `membershipFrom`'s membership: where one membership is read. */
export const membershipKey = m.membershipId;

export const membershipList: ListDefinition<'membership'> = {
  list: 'membership',
  name: 'memberships',
  from: membershipFrom,
  search: ({ contains }) => sql`${contains(m.name)} or ${contains(m.description)}`,
  sorts: {
    name: { keys: [key(m.name), key(m.membershipId)] },
    membershipId: { keys: [key(m.membershipId)] },
    membershipLengthInMonths: { keys: [key(m.membershipLengthInMonths), key(m.membershipId)] },
  },
  item: membershipItem,
  total: stripedCount('memberships'),
};

const linkFrom = sql`${tableAs(promotionalProducts, 'pp')}
  join ${tableAs(memberships, 'm')} on ${m.membershipId} = ${pp.membershipId}
  join ${tableAs(products, 'pr')} on ${pr.productId} = ${pp.productId}`;

const linkSorts: ListDefinition<'promotionalProduct'>['sorts'] = {
  // The first two keys walk an index of the outer table; the rest order the few links of each of its rows.
  membershipName: { keys: [key(m.name), key(m.membershipId), key(pr.name), key(pr.productId)], seek: 2 },
  productName: { keys: [key(pr.name), key(pr.productId), key(m.name), key(m.membershipId)], seek: 2 },
};

const linkItem = jsonObject<PromotionalProduct>({
  productId: pp.productId,
  membershipId: pp.membershipId,
  productName: pr.name,
  membershipName: m.name,
});

/** Every promotional link; a search finds the membership or product by name. */
export const promotionalProductList: ListDefinition<'promotionalProduct'> = {
  list: 'promotionalProduct',
  name: 'links',
  from: linkFrom,
  // Each name searched through its own trigram index, then the matching links through their two key indexes.
  search: ({ contains }) =>
    sql`${pp.membershipId} = any(array(select ${memberships.membershipId} from ${memberships} where ${contains(memberships.name)}))
        or ${pp.productId} = any(array(select ${products.productId} from ${products} where ${contains(products.name)}))`,
  sorts: linkSorts,
  item: linkItem,
  total: stripedCount('promotional_products'),
};

/** The links of one membership (`scopeValue(0)`); a search finds products by name. */
export const membershipPromotionalProductList: ListDefinition<'promotionalProduct'> = {
  list: 'promotionalProduct',
  name: 'membership_links',
  from: linkFrom,
  scope: sql`${pp.membershipId} = ${scopeValue(0)}`,
  search: ({ contains }) => contains(pr.name),
  sorts: linkSorts,
  item: linkItem,
  total: sql`(select count(*) from ${promotionalProducts} where ${promotionalProducts.membershipId} = ${scopeValue(0)})`,
};
