import { legacyKey as key, type ListSpec } from '../lists/list-statements.js';

/** One membership as JSON: product, package name and promotional products (by name). */
export const MEMBERSHIP_ITEM = `json_build_object(
  'membershipId', m.membership_id, 'name', m.name, 'description', m.description,
  'productId', m.product_id, 'productName', p.name, 'productRetailPrice', p.retail_price::float8,
  'discountPackageId', m.discount_package_id, 'discountPackageName', dp.name,
  'numberOfFreeEligibleItems', m.number_of_free_eligible_items,
  'membershipLengthInMonths', m.membership_length_in_months,
  'promotionalProducts', coalesce((
    select json_agg(json_build_object('productId', pp.product_id, 'name', pr.name)
                    order by lower(pr.name), pr.name, pr.product_id)
    from promotional_products pp join products pr on pr.product_id = pp.product_id
    where pp.membership_id = m.membership_id), '[]'::json))`;

export const MEMBERSHIP_FROM = `memberships m
  join products p on p.product_id = m.product_id
  left join discount_packages dp on dp.discount_package_id = m.discount_package_id`;

export const membershipList: ListSpec<'membership'> = {
  list: 'membership',
  name: 'memberships',
  from: MEMBERSHIP_FROM,
  scopeValues: 0,
  search: 'm.name ilike {pattern} or m.description ilike {pattern}',
  sorts: {
    name: { keys: [key('m.name', 'text'), key('m.membership_id', 'int4')] },
    membershipId: { keys: [key('m.membership_id', 'int4')] },
    membershipLengthInMonths: {
      keys: [key('m.membership_length_in_months', 'int4'), key('m.membership_id', 'int4')],
    },
  },
  item: MEMBERSHIP_ITEM,
  total: `(select n from list_counts where key = 'memberships')`,
};

const LINK_FROM = `promotional_products pp
  join memberships m on m.membership_id = pp.membership_id
  join products pr on pr.product_id = pp.product_id`;

const linkSorts: ListSpec<'promotionalProduct'>['sorts'] = {
  // The first two keys walk an index of the outer table; the rest order the few links of each of its rows.
  membershipName: {
    keys: [key('m.name', 'text'), key('m.membership_id', 'int4'), key('pr.name', 'text'), key('pr.product_id', 'int4')],
    seek: 2,
  },
  productName: {
    keys: [key('pr.name', 'text'), key('pr.product_id', 'int4'), key('m.name', 'text'), key('m.membership_id', 'int4')],
    seek: 2,
  },
};

const LINK_ITEM = `json_build_object('productId', pp.product_id, 'membershipId', pp.membership_id,
                                     'productName', pr.name, 'membershipName', m.name)`;

/** Every promotional link; a search finds the membership or product by name. */
export const promotionalProductList: ListSpec<'promotionalProduct'> = {
  list: 'promotionalProduct',
  name: 'links',
  from: LINK_FROM,
  scopeValues: 0,
  // Each name searched through its own trigram index, then the matching links through their two key indexes.
  search: `pp.membership_id = any(array(select membership_id from memberships where name ilike {pattern}))
           or pp.product_id = any(array(select product_id from products where name ilike {pattern}))`,
  sorts: linkSorts,
  item: LINK_ITEM,
  total: `(select n from list_counts where key = 'promotional_products')`,
};

/** The links of one membership ($1); a search finds products by name. */
export const membershipPromotionalProductList: ListSpec<'promotionalProduct'> = {
  list: 'promotionalProduct',
  name: 'membership_links',
  from: LINK_FROM,
  scope: 'pp.membership_id = $1',
  scopeValues: 1,
  search: 'pr.name ilike {pattern}',
  sorts: linkSorts,
  item: LINK_ITEM,
  total: '(select count(*) from promotional_products where membership_id = $1)',
};
