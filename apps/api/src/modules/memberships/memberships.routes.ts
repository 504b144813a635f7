import {
  idParamsSchema,
  exportableListQuerySchema,
  membershipIdParamsSchema,
  membershipInputSchema,
  membershipSchema,
  ok,
  promotionalProductBatchSchema,
  promotionalProductLinkSchema,
  promotionalProductSchema,
} from '@ums/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/audit.js';
import { answers } from '../envelope-schema.js';
import { sendJsonText } from '../lists/json-text.js';
import type { Lists } from '../lists/lists.js';
import { membershipList, membershipPromotionalProductList, promotionalProductList } from './memberships.lists.js';
import type { createMembershipService } from './memberships.service.js';

const catalog = { policy: 'catalog' as const };

export const membershipRoutes: FastifyPluginAsyncZod<{
  memberships: ReturnType<typeof createMembershipService>;
  lists: Lists;
}> = async (app, { memberships, lists }) => {
  const tags = ['memberships'];
  app.get('/api/membership', {
    config: catalog,
    schema: {
      tags,
      summary:
        'Memberships with their product, package and promotional products: all, or a page (limit, cursor, q, sort)',
      querystring: exportableListQuerySchema('membership'),
      response: answers(membershipSchema),
    },
    handler: async (request, reply) =>
      lists.catalogOrCsv(reply, membershipList, request.query, {
        name: 'memberships',
        fields: Object.keys(membershipSchema.shape),
      }),
  });
  app.get('/api/membership/:id', {
    config: catalog,
    schema: { tags, params: idParamsSchema, response: answers(membershipSchema) },
    handler: async (request) => ok(await memberships.get(request.params.id)),
  });
  app.post('/api/membership', {
    config: catalog,
    schema: { tags, body: membershipInputSchema, response: answers(membershipSchema, 201) },
    handler: async (request, reply) =>
      reply.status(201).send(ok(await memberships.create(actorOf(request), request.body), 'Membership created')),
  });
  app.put('/api/membership/:id', {
    config: catalog,
    schema: { tags, params: idParamsSchema, body: membershipInputSchema, response: answers(membershipSchema) },
    handler: async (request) =>
      ok(await memberships.update(actorOf(request), request.params.id, request.body), 'Membership saved'),
  });
  app.delete('/api/membership/:id', {
    config: catalog,
    schema: { tags, params: idParamsSchema, response: answers(z.never()) },
    handler: async (request) => {
      await memberships.remove(actorOf(request), request.params.id);
      return ok([], 'Membership deleted');
    },
  });

  const promoTags = ['promotional products'];
  const PROMOTIONAL_CSV = { name: 'promotional-products', fields: Object.keys(promotionalProductSchema.shape) };
  app.get('/api/promotionalProduct', {
    config: catalog,
    schema: {
      tags: promoTags,
      summary: 'Promotional product links: all, or a page (limit, cursor, q, sort)',
      querystring: exportableListQuerySchema('promotionalProduct'),
      response: answers(promotionalProductSchema),
    },
    handler: async (request, reply) =>
      lists.catalogOrCsv(reply, promotionalProductList, request.query, PROMOTIONAL_CSV),
  });
  app.get('/api/promotionalProduct/:membershipId', {
    config: catalog,
    schema: {
      tags: promoTags,
      summary: "One membership's promotional products: all, or a page (limit, cursor, q, sort)",
      params: membershipIdParamsSchema,
      querystring: exportableListQuerySchema('promotionalProduct'),
      response: answers(promotionalProductSchema),
    },
    handler: async (request, reply) => {
      const { membershipId } = request.params;
      if (request.query.format === 'csv') {
        await memberships.assertExists(membershipId);
        return lists.csv(reply, membershipPromotionalProductList, request.query, PROMOTIONAL_CSV, [membershipId]);
      }
      // An empty list may mean an unknown membership: only then is its existence looked up (404), once per catalog
      // version, as the answer is kept.
      const body = await lists.catalog(
        membershipPromotionalProductList,
        request.query,
        [membershipId],
        async ({ empty }) => {
          if (empty) await memberships.assertExists(membershipId);
        },
      );
      return sendJsonText(reply, body);
    },
  });
  app.post('/api/promotionalProduct', {
    config: catalog,
    schema: {
      tags: promoTags,
      body: promotionalProductLinkSchema,
      response: answers(promotionalProductLinkSchema, 201),
    },
    handler: async (request, reply) =>
      reply
        .status(201)
        .send(ok(await memberships.addPromotional(actorOf(request), [request.body]), 'Promotional product added')),
  });
  app.post('/api/promotionalProduct/batch', {
    config: catalog,
    schema: {
      tags: promoTags,
      summary: 'Add links in one transaction: all or nothing; existing links are ignored',
      body: promotionalProductBatchSchema,
      response: answers(promotionalProductLinkSchema, 201),
    },
    handler: async (request, reply) =>
      reply
        .status(201)
        .send(ok(await memberships.addPromotional(actorOf(request), request.body), 'Promotional products added')),
  });
  app.delete('/api/promotionalProduct', {
    config: catalog,
    schema: { tags: promoTags, body: promotionalProductLinkSchema, response: answers(z.never()) },
    handler: async (request) => {
      await memberships.removePromotional(actorOf(request), request.body);
      return ok([], 'Promotional product removed');
    },
  });
};
