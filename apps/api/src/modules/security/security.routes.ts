import {
  deviceSessionSchema,
  listQuerySchema,
  ok,
  SECURITY_MESSAGES,
  securityActivitySchema,
  sessionIdParamsSchema,
} from '@ums/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../identity/security-events.js';
import type { SecurityService } from '../../identity/security.service.js';
import { requireUser } from '../../plugins/auth.js';
import { HttpError } from '../../plugins/http-errors.js';
import { answers } from '../envelope-schema.js';
import { sendJsonText } from '../lists/json-text.js';
import type { Lists } from '../lists/lists.js';
import { activityList } from './security.lists.js';

const member = { policy: 'member' as const };

/** The members' security section: their devices (provider sessions), ending them, and their security activity. */
export const securityRoutes: FastifyPluginAsyncZod<{
  security: SecurityService;
  lists: Lists;
  /** Sessions live in the embedded provider; another provider keeps its own. */
  embedded: boolean;
}> = async (app, { security, lists, embedded }) => {
  const embeddedOnly = () => {
    if (!embedded) throw new HttpError(501, SECURITY_MESSAGES.managedElsewhere);
  };

  app.get('/api/sessions', {
    config: member,
    schema: {
      tags: ['security'],
      summary: "The caller's signed-in devices (sessions), the calling one first",
      response: answers(deviceSessionSchema),
    },
    handler: async (request) => {
      embeddedOnly();
      const user = requireUser(request);
      return ok(await security.listSessions(user.subject, user.grantId));
    },
  });
  app.delete('/api/sessions/:id', {
    config: member,
    schema: {
      tags: ['security'],
      summary: "End one of the caller's other sessions: its tokens stop working at once",
      params: sessionIdParamsSchema,
      response: answers(z.never()),
    },
    handler: async (request) => {
      embeddedOnly();
      const user = requireUser(request);
      await security.endSession(user.subject, request.params.id, user.grantId, originOf(request));
      return ok([], SECURITY_MESSAGES.sessionEnded);
    },
  });
  app.delete('/api/sessions', {
    config: member,
    schema: {
      tags: ['security'],
      summary: "End every session of the caller's but the calling one (the member is told by mail)",
      response: answers(z.never()),
    },
    handler: async (request) => {
      embeddedOnly();
      const user = requireUser(request);
      await security.endOtherSessions(user.subject, user.grantId, originOf(request));
      return ok([], SECURITY_MESSAGES.othersEnded);
    },
  });
  app.get('/api/activity', {
    config: member,
    schema: {
      tags: ['security'],
      summary: "The caller's security activity of the last 90 days, newest first: all, or a page (limit, cursor, q)",
      querystring: listQuerySchema('activity'),
      response: answers(securityActivitySchema),
    },
    handler: async (request, reply) =>
      sendJsonText(reply, await lists.fresh(activityList, request.query, [requireUser(request).subject])),
  });
};
