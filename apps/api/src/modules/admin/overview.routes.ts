import { adminOverviewSchema } from '@ums/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { answers } from '../envelope-schema.js';
import { sendJsonText } from '../lists/json-text.js';
import type { Lists } from '../lists/lists.js';

/** The dashboard's figures: the kept counts, and the five products the most memberships promote. */
const OVERVIEW = `
  select json_build_object('isError', false, 'message', '', 'data', json_build_array(json_build_object(
    'memberships', (select n from list_counts where key = 'memberships'),
    'discountPackages', (select n from list_counts where key = 'discount_packages'),
    'products', (select n from list_counts where key = 'products'),
    'promotionalProducts', (select n from list_counts where key = 'promotional_products'),
    'mostPromoted', coalesce((
      select json_agg(json_build_object('productId', t.product_id, 'name', t.name, 'memberships', t.n)
                      order by t.n desc, t.name, t.product_id)
      from (select pp.product_id, p.name, count(*) as n
            from promotional_products pp join products p on p.product_id = pp.product_id
            group by pp.product_id, p.name
            order by n desc, p.name, pp.product_id
            limit 5) t), '[]'::json)
  )))::text as body`;

/** The overview's statement, and its answer's key in the catalog cache: its name, as a list answer's is its own. */
export const OVERVIEW_STATEMENT = { name: 'admin_overview', text: OVERVIEW } as const;
export const OVERVIEW_CACHE_KEY = JSON.stringify([OVERVIEW_STATEMENT.name]);

export const overviewRoutes: FastifyPluginAsyncZod<{ pool: pg.Pool; lists: Lists }> = async (app, { pool, lists }) => {
  app.get('/api/admin/overview', {
    config: { policy: 'admin' },
    schema: {
      tags: ['admin'],
      summary: "The dashboard's counts and most promoted products, in one call",
      response: answers(adminOverviewSchema),
    },
    handler: async (_request, reply) =>
      sendJsonText(
        reply,
        await lists.cache.get(OVERVIEW_CACHE_KEY, async () => {
          const { rows } = await pool.query<{ body: string }>(OVERVIEW_STATEMENT);
          return rows[0]!.body;
        }),
      ),
  });
};
