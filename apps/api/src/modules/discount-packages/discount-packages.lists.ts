import { legacyKey as key, type ListSpec } from '../lists/list-statements.js';

/** One package as JSON with its products (by name) and their package prices. */
export const PACKAGE_ITEM = `json_build_object(
  'discountPackageId', dp.discount_package_id, 'name', dp.name, 'description', dp.description,
  'products', coalesce((
    select json_agg(json_build_object('productId', pr.product_id, 'productName', pr.name,
                                      'retailPrice', pr.retail_price::float8, 'price', dpp.price::float8)
                    order by lower(pr.name), pr.name, pr.product_id)
    from discount_package_products dpp join products pr on pr.product_id = dpp.product_id
    where dpp.discount_package_id = dp.discount_package_id), '[]'::json))`;

export const discountPackageList: ListSpec<'discountPackage'> = {
  list: 'discountPackage',
  name: 'packages',
  from: 'discount_packages dp',
  scopeValues: 0,
  search: 'dp.name ilike {pattern} or dp.description ilike {pattern}',
  sorts: {
    name: { keys: [key('dp.name', 'text'), key('dp.discount_package_id', 'int4')] },
    discountPackageId: { keys: [key('dp.discount_package_id', 'int4')] },
  },
  item: PACKAGE_ITEM,
  total: `(select n from list_counts where key = 'discount_packages')`,
};
