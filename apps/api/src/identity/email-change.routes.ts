import { EMAIL_CHANGE_TEXTS, emailChangeRequestSchema, emailChangeStatusSchema, ok } from '@ums/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../plugins/auth.js';
import { HttpError } from '../plugins/http-errors.js';
import { answers } from '../modules/envelope-schema.js';
import type { EmailChanges } from './email-change.js';
import { originOf } from './security-events.js';

const member = { policy: 'member' as const };

/**
 * The member's own address (Login Details): its status, asking for a change, sending the link again, cancelling. Only
 * the embedded provider keeps addresses here; another provider's members change theirs there (501).
 */
export const emailChangeRoutes: FastifyPluginAsyncZod<{ changes: EmailChanges | null }> = async (app, { changes }) => {
  const service = () => {
    if (!changes) throw new HttpError(501, EMAIL_CHANGE_TEXTS.managedElsewhere);
    return changes;
  };

  app.get('/api/me/email-change', {
    config: member,
    schema: {
      tags: ['account'],
      summary: "The caller's email address and the change waiting for confirmation, if any",
      response: answers(emailChangeStatusSchema),
    },
    handler: async (request) => ok(await service().status(requireUser(request))),
  });

  app.post('/api/me/email-change', {
    config: member,
    schema: {
      tags: ['account'],
      summary: 'Ask to change the email address: a single-use link valid 24 hours goes to the new address',
      body: emailChangeRequestSchema,
      response: answers(emailChangeStatusSchema, 202),
    },
    handler: async (request, reply) => {
      const status = await service().request(requireUser(request), request.body, originOf(request));
      return reply.status(202).send(ok(status, EMAIL_CHANGE_TEXTS.requested));
    },
  });

  app.post('/api/me/email-change/resend', {
    config: member,
    schema: {
      tags: ['account'],
      summary: "Send the pending change's link again (the earlier link stops working)",
      response: answers(emailChangeStatusSchema, 202),
    },
    handler: async (request, reply) => {
      const status = await service().resend(requireUser(request), originOf(request));
      return reply.status(202).send(ok(status, EMAIL_CHANGE_TEXTS.requested));
    },
  });

  app.delete('/api/me/email-change', {
    config: member,
    schema: {
      tags: ['account'],
      summary: 'Cancel the change waiting for confirmation: its link stops working',
      response: answers(emailChangeStatusSchema),
    },
    handler: async (request) => ok(await service().cancel(requireUser(request)), EMAIL_CHANGE_TEXTS.cancelled),
  });
};
