import { catalogRefreshResultSchema, exportableListQuerySchema, ok, productSchema } from '@ums/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/audit.js';
import { answers } from '../envelope-schema.js';
import type { Lists } from '../lists/lists.js';
import { productList } from './catalog.lists.js';
import type { createCatalogService } from './catalog.service.js';

export const catalogRoutes: FastifyPluginAsyncZod<{
  catalog: ReturnType<typeof createCatalogService>;
  lists: Lists;
}> = async (app, { catalog, lists }) => {
  app.get('/api/product', {
    config: { policy: 'catalog' },
    schema: {
      tags: ['products'],
      summary: 'The product catalog by name: all, or a page (limit, cursor, q, sort)',
      querystring: exportableListQuerySchema('product'),
      response: answers(productSchema),
    },
    handler: async (request, reply) =>
      lists.catalogOrCsv(reply, productList, request.query, {
        name: 'products',
        fields: Object.keys(productSchema.shape),
      }),
  });
  // SPEC section 7 names GET for this change of state; POST answers the same for clients that keep GET safe.
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/api/product/refresh',
      config: { policy: 'catalog', changesState: true },
      schema: {
        tags: ['products'],
        summary: 'Re-read the catalog from its source, upserting by product id',
        response: answers(catalogRefreshResultSchema.extend({ removed: z.number().int() })),
      },
      handler: async (request) => {
        const result = await catalog.refresh(actorOf(request));
        return ok(
          result,
          `Catalog refreshed: ${result.added} added, ${result.updated} updated, ${result.removed} removed`,
        );
      },
    });
  }
};
