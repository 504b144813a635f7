import { adminOverviewSchema } from '@ums/contracts';
import { sql } from 'drizzle-orm';
import { alias, PgDialect } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { products, promotionalProducts } from '../../db/schema/index.js';
import { stripedCount } from '../../db/write-stripes.js';
import { answers } from '../envelope-schema.js';
import { sendJsonText } from '../lists/json-text.js';
import { tableAs } from '../lists/list-statements.js';
import type { Lists } from '../lists/lists.js';

const pp = alias(promotionalProducts, 'pp');
const p = alias(products, 'p');
/** The derived table `t` of the five most promoted products: its columns keep their tables' names (and `n`). */
const top = { productId: alias(promotionalProducts, 't').productId, name: alias(products, 't').name };

/**
 * The dashboard's figures: the kept counts, and the five products the most memberships promote. Written with literals
 * only (no parameters), so the named statement's one plan is the plan for these values.
 */
const OVERVIEW = new PgDialect().sqlToQuery(sql`
  select json_build_object('isError', false, 'message', '', 'data', json_build_array(json_build_object(
    'memberships', ${stripedCount('memberships')},
    'discountPackages', ${stripedCount('discount_packages')},
    'products', ${stripedCount('products')},
    'promotionalProducts', ${stripedCount('promotional_products')},
    'mostPromoted', coalesce((
      select json_agg(json_build_object('productId', ${top.productId}, 'name', ${top.name}, 'memberships', t.n)
                      order by t.n desc, ${top.name}, ${top.productId})
      from (select ${pp.productId}, ${p.name}, count(*) as n
            from ${tableAs(promotionalProducts, 'pp')} join ${tableAs(products, 'p')} on ${p.productId} = ${pp.productId}
            group by ${pp.productId}, ${p.name}
            order by n desc, ${p.name}, ${pp.productId}
            limit 5) ${sql.identifier('t')}), '[]'::json)
  )))::text as body`).sql;

/** The overview's statement, and its answer's key in the catalog cache: its name, as a list answer's is its own. */
export const OVERVIEW_STATEMENT = { name: 'admin_overview', text: OVERVIEW } as const;
export const OVERVIEW_CACHE_KEY = JSON.stringify([OVERVIEW_STATEMENT.name]);

export const overviewRoutes: FastifyPluginAsyncZod<{ pool: pg.Pool; lists: Lists }> = async (app, { pool, lists }) => {
  app.get('/api/admin/overview', {
    config: { policy: 'catalog' },
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
