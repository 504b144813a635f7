import { AUDIT_MESSAGES, auditEntrySchema, auditIdParamsSchema, auditQuerySchema, ok } from '@ums/contracts';
import { revertRight } from '@ums/contracts/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { holdsRight, requireRight } from '../../plugins/auth.js';
import { answers } from '../envelope-schema.js';
import { sendJsonText } from '../lists/json-text.js';
import type { Lists } from '../lists/lists.js';
import { actorOf } from './audit.js';
import { auditList } from './audit.lists.js';
import type { AuditRevert } from './revert.js';

const AUDIT_CSV = {
  name: 'audit-trail',
  fields: ['id', 'at', 'actor', 'action', 'entity', 'entityId', 'label', 'before', 'after', 'reverts'],
  // A change is read in full: an entity with a name would otherwise be summarised by it.
  jsonFields: ['before', 'after'],
};

/** The administrators' audit trail: read it (newest first, filtered) and revert an entry. */
export const auditRoutes: FastifyPluginAsyncZod<{ lists: Lists; audit: AuditRevert }> = async (
  app,
  { lists, audit },
) => {
  app.get('/api/admin/audit', {
    // Every console role reads it; a role without member data (Catalog) reads the catalog's entries only.
    config: { policy: 'console' },
    schema: {
      tags: ['admin'],
      summary:
        'The audit trail, newest first: all, or a page (limit, cursor, q over actor, action and name), ' +
        'filtered by entity, entityId and actor (an account id)',
      querystring: auditQuerySchema,
      response: answers(auditEntrySchema),
    },
    handler: async (request, reply) => {
      const { entity, entityId, actor, format, ...page } = request.query;
      const catalogOnly = !holdsRight(request, 'members');
      if (catalogOnly && entity === 'member') requireRight(request, 'members');
      const { spec, scope } = auditList({
        ...(catalogOnly && !entity ? { catalogOnly } : {}),
        ...(entity ? { entity } : {}),
        ...(entityId ? { entityId } : {}),
        ...(actor ? { actor } : {}),
      });
      if (format === 'csv') return lists.csv(reply, spec, page, AUDIT_CSV, scope);
      return sendJsonText(reply, await lists.audit(spec, page, scope));
    },
  });
  app.post('/api/admin/audit/:id/revert', {
    // Reverting is changing again: the catalog's entries need the catalog, a member's groups need Admin's right.
    config: { policy: 'catalog' },
    schema: {
      tags: ['admin'],
      summary:
        "Apply the entry's before state while the entity still shows its after state (409 with the current state " +
        'otherwise); the revert is itself audited',
      params: auditIdParamsSchema,
      response: answers(auditEntrySchema),
    },
    handler: async (request) => {
      // Reverting is changing again: the catalog's entries need the catalog, a member's groups need Admin's right.
      const entry = await audit.revert(actorOf(request), request.params.id, (entity) =>
        requireRight(request, revertRight(entity)),
      );
      return ok(entry, AUDIT_MESSAGES.reverted);
    },
  });
};
