import { key, type ListSpec } from '../lists/list-statements.js';

export const productList: ListSpec<'product'> = {
  list: 'product',
  name: 'products',
  from: 'products p',
  scopeValues: 0,
  search: 'p.name ilike {pattern}',
  sorts: {
    name: { keys: [key('p.name', 'text'), key('p.product_id', 'int4')] },
    productId: { keys: [key('p.product_id', 'int4')] },
    retailPrice: { keys: [key('p.retail_price', 'numeric'), key('p.product_id', 'int4')] },
  },
  item: `json_build_object('productId', p.product_id, 'name', p.name, 'retailPrice', p.retail_price::float8,
                           'imageUrl', p.image_url)`,
  total: `(select n from list_counts where key = 'products')`,
};
