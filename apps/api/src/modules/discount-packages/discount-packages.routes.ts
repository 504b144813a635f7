import {
  discountPackageInputSchema,
  discountPackagePriceInputSchema,
  discountPackageProductAddSchema,
  discountPackageProductKeySchema,
  discountPackageSchema,
  idParamsSchema,
  exportableListQuerySchema,
  ok,
} from '@ums/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/audit.js';
import { answers } from '../envelope-schema.js';
import type { Lists } from '../lists/lists.js';
import { discountPackageList } from './discount-packages.lists.js';
import type { createDiscountPackageService } from './discount-packages.service.js';

const catalog = { policy: 'catalog' as const };

export const discountPackageRoutes: FastifyPluginAsyncZod<{
  packages: ReturnType<typeof createDiscountPackageService>;
  lists: Lists;
}> = async (app, { packages, lists }) => {
  const tags = ['discount packages'];
  app.get('/api/discountPackage', {
    config: catalog,
    schema: {
      tags,
      summary: 'Discount packages with their products and package prices: all, or a page (limit, cursor, q, sort)',
      querystring: exportableListQuerySchema('discountPackage'),
      response: answers(discountPackageSchema),
    },
    handler: async (request, reply) =>
      lists.catalogOrCsv(reply, discountPackageList, request.query, {
        name: 'discount-packages',
        fields: Object.keys(discountPackageSchema.shape),
      }),
  });
  app.get('/api/discountPackage/:id', {
    config: catalog,
    schema: { tags, params: idParamsSchema, response: answers(discountPackageSchema) },
    handler: async (request) => ok(await packages.get(request.params.id)),
  });
  app.post('/api/discountPackage', {
    config: catalog,
    schema: { tags, body: discountPackageInputSchema, response: answers(discountPackageSchema, 201) },
    handler: async (request, reply) =>
      reply.status(201).send(ok(await packages.create(actorOf(request), request.body), 'Discount package created')),
  });
  app.put('/api/discountPackage/:id', {
    config: catalog,
    schema: {
      tags,
      params: idParamsSchema,
      body: discountPackageInputSchema,
      response: answers(discountPackageSchema),
    },
    handler: async (request) =>
      ok(await packages.update(actorOf(request), request.params.id, request.body), 'Discount package saved'),
  });
  app.delete('/api/discountPackage/:id', {
    config: catalog,
    schema: { tags, params: idParamsSchema, response: answers(z.never()) },
    handler: async (request) => {
      await packages.remove(actorOf(request), request.params.id);
      return ok([], 'Discount package deleted');
    },
  });

  app.put('/api/discountPackageProduct', {
    config: catalog,
    schema: {
      tags,
      summary: 'Set or clear (null) the package price of a product in the package',
      body: discountPackagePriceInputSchema,
      response: answers(discountPackageSchema),
    },
    handler: async (request) => ok(await packages.setPrice(actorOf(request), request.body), 'Package price saved'),
  });
  app.post('/api/discountPackageProduct', {
    config: catalog,
    schema: {
      tags,
      summary: 'Add a product to a package',
      body: discountPackageProductAddSchema,
      response: answers(discountPackageSchema, 201),
    },
    handler: async (request, reply) =>
      reply
        .status(201)
        .send(
          ok(
            await packages.addProduct(actorOf(request), { ...request.body, price: request.body.price ?? null }),
            'Product added to the package',
          ),
        ),
  });
  app.delete('/api/discountPackageProduct', {
    config: catalog,
    schema: {
      tags,
      summary: 'Remove a product from a package',
      body: discountPackageProductKeySchema,
      response: answers(discountPackageSchema),
    },
    handler: async (request) =>
      ok(await packages.removeProduct(actorOf(request), request.body), 'Product removed from the package'),
  });
};
