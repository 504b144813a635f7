import {
  authCheckSchema,
  autologinSchema,
  idParamsSchema,
  ok,
  paymentHistoryEntrySchema,
  subscriptionSchema,
  userDetailsInputSchema,
  userDetailsSchema,
  type Envelope,
  type Subscription,
} from '@ums/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../plugins/auth.js';
import { notFound } from '../../plugins/http-errors.js';
import { answers } from '../envelope-schema.js';
import type { createMemberService } from './member.service.js';

const member = { policy: 'member' as const };

export const memberRoutes: FastifyPluginAsyncZod<{
  members: ReturnType<typeof createMemberService>;
  autologinUrl: string | undefined;
}> = async (app, { members, autologinUrl }) => {
  app.get('/api/userdetails/', {
    config: member,
    schema: { tags: ['account'], summary: "The caller's own details", response: answers(userDetailsSchema) },
    handler: async (request) => ok(await members.details(requireUser(request))),
  });
  app.post('/api/userdetails/internal', {
    config: member,
    schema: {
      tags: ['account'],
      summary: "Save the caller's own details (the owner is the token's subject)",
      body: userDetailsInputSchema,
      response: answers(userDetailsSchema),
    },
    handler: async (request) => ok(await members.saveDetails(requireUser(request), request.body), 'Details saved'),
  });
  app.get('/api/UserSubscriptions', {
    config: member,
    schema: { tags: ['account'], summary: "The caller's active subscriptions", response: answers(subscriptionSchema) },
    // PostgreSQL builds the answer (the schema above documents it). Fastify sends a string with a JSON content type
    // as it is; the cast tells the typed reply that this string is the documented envelope.
    handler: async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send((await members.subscriptionsEnvelope(requireUser(request))) as unknown as Envelope<Subscription>),
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
      summary: "The caller's orders, newest first",
      response: answers(paymentHistoryEntrySchema),
    },
    handler: async (request) => ok(await members.paymentHistory(requireUser(request))),
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
