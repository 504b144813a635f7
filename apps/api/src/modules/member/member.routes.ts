import {
  authCheckSchema,
  autologinSchema,
  idParamsSchema,
  listQuerySchema,
  ok,
  paymentHistoryEntrySchema,
  subscriptionSchema,
  userDetailsInputSchema,
  userDetailsSchema,
} from '@ums/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../plugins/auth.js';
import { notFound } from '../../plugins/http-errors.js';
import { answers } from '../envelope-schema.js';
import { sendJsonText } from '../lists/json-text.js';
import type { Lists } from '../lists/lists.js';
import { paymentHistoryList, subscriptionList } from './member.lists.js';
import type { createMemberService } from './member.service.js';

const member = { policy: 'member' as const };

export const memberRoutes: FastifyPluginAsyncZod<{
  members: ReturnType<typeof createMemberService>;
  autologinUrl: string | undefined;
  lists: Lists;
}> = async (app, { members, autologinUrl, lists }) => {
  app.get('/api/userdetails/', {
    config: member,
    schema: { tags: ['account'], summary: "The caller's own details", response: answers(userDetailsSchema) },
    // Built by PostgreSQL from one row and sent as that JSON text, not parsed again through the response schema.
    handler: async (request, reply) => sendJsonText(reply, await members.detailsText(requireUser(request))),
  });
  app.post('/api/userdetails/internal', {
    config: member,
    schema: {
      tags: ['account'],
      summary: "Save the caller's own details (the owner is the token's subject)",
      body: userDetailsInputSchema,
      response: answers(userDetailsSchema),
    },
    handler: async (request, reply) =>
      sendJsonText(reply, await members.saveDetails(requireUser(request), request.body)),
  });
  app.get('/api/UserSubscriptions', {
    config: member,
    schema: {
      tags: ['account'],
      summary: "The caller's active subscriptions: all, or a page (limit, cursor, q, sort)",
      querystring: listQuerySchema('subscriptions'),
      response: answers(subscriptionSchema),
    },
    handler: async (request, reply) =>
      sendJsonText(reply, await lists.member(subscriptionList, request.query, [requireUser(request).subject])),
  });
  app.delete('/api/UserSubscriptions/:id', {
    config: member,
    schema: {
      tags: ['account'],
      summary: "Cancel one of the caller's subscriptions",
      params: idParamsSchema,
      response: answers(z.never()),
    },
    handler: async (request) => {
      await members.cancelSubscription(requireUser(request), request.params.id);
      return ok([], 'Subscription cancelled');
    },
  });
  app.get('/api/PaymentHistory', {
    config: member,
    schema: {
      tags: ['account'],
      summary: "The caller's orders, newest first: all, or a page (limit, cursor, q, sort)",
      querystring: listQuerySchema('paymentHistory'),
      response: answers(paymentHistoryEntrySchema),
    },
    handler: async (request, reply) =>
      sendJsonText(reply, await lists.member(paymentHistoryList, request.query, [requireUser(request).subject])),
  });
  app.get('/api/autologin', {
    config: member,
    schema: { tags: ['account'], summary: 'The companion store address', response: answers(autologinSchema) },
    handler: async () => {
      if (!autologinUrl) throw notFound('A companion store address');
      return ok({ url: autologinUrl });
    },
  });
  app.get('/api/test/auth', {
    config: member,
    schema: {
      tags: ['diagnostics'],
      summary: "The caller's subject, email and groups",
      response: answers(authCheckSchema),
    },
    handler: async (request) => {
      const user = requireUser(request);
      return ok({ subject: user.subject, email: user.email, groups: user.groups });
    },
  });
};
