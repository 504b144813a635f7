import {
  adminMemberDetailsSchema,
  adminMemberSchema,
  exportableListQuerySchema,
  listQuerySchema,
  memberGroupsSchema,
  MEMBER_DIRECTORY_ENTITY_ID,
  memberIdParamsSchema,
  ok,
  paymentHistoryEntrySchema,
  securityActivitySchema,
} from '@ums/contracts';
import { rolesOf, ROLE_TEXTS, type RoleGroups } from '@ums/contracts/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../identity/security-events.js';
import { holdsRight, requireRight, requireUser } from '../../plugins/auth.js';
import { HttpError } from '../../plugins/http-errors.js';
import { answers } from '../envelope-schema.js';
import { sendJsonText } from '../lists/json-text.js';
import type { Lists } from '../lists/lists.js';
import { MEMBER_MESSAGES, type MemberDirectory } from './members.js';
import { paymentHistoryList } from '../member/member.lists.js';
import { activityList } from '../security/security.lists.js';
import { memberDirectoryList } from './members.lists.js';

/** Reading a member: Admin and Support (README, "Console roles"). */
const readMembers = { policy: 'members' as const };
/** Changes to a member's access: a recent sign-in first (RFC 9470 step-up). */
const sensitive = { policy: 'members' as const, stepUp: true };
/** A member's groups, and so their console roles: Admin only. */
const roles = { policy: 'roles' as const, stepUp: true };
export const MANAGED_ELSEWHERE = 'Members are managed by your identity provider.';

/** The administrators' member directory (accounts of the embedded provider). */
export const memberDirectoryRoutes: FastifyPluginAsyncZod<{
  members: MemberDirectory;
  lists: Lists;
  embedded: boolean;
  roleGroups: RoleGroups;
}> = async (app, { members, lists, embedded, roleGroups }) => {
  const embeddedOnly = () => {
    if (!embedded) throw new HttpError(501, MANAGED_ELSEWHERE);
  };
  /** Support acts on members, not on people with a console role: only Admin does (see `MayActOn`). */
  const mayActOn = (request: Parameters<typeof requireUser>[0]) => (groups: string[]) => {
    if (!holdsRight(request, 'roles') && rolesOf(groups, roleGroups).length > 0) {
      throw new HttpError(403, ROLE_TEXTS.onlyAdminOnRoles);
    }
  };
  const actorOf = (request: Parameters<typeof requireUser>[0]) => {
    const user = requireUser(request);
    return { id: user.subject, email: user.email };
  };

  app.get('/api/admin/members', {
    config: readMembers,
    schema: {
      tags: ['admin'],
      summary: 'The member directory: all, or a page (limit, cursor, q over email and names, sort email|createdAt)',
      querystring: exportableListQuerySchema('members'),
      response: answers(adminMemberSchema),
    },
    handler: async (request, reply) => {
      embeddedOnly();
      if (request.query.format === 'csv') {
        // Member data in a file is more than helping one member: Admin only (README, "Console roles").
        requireRight(request, 'membersExport');
        const { q, sort } = request.query;
        await members.recordRead(actorOf(request), 'members-exported', MEMBER_DIRECTORY_ENTITY_ID, {
          format: 'csv',
          ...(q ? { q } : {}),
          ...(sort ? { sort } : {}),
        });
        return lists.csv(reply, memberDirectoryList, request.query, {
          name: 'members',
          fields: Object.keys(adminMemberSchema.shape),
        });
      }
      // Without a limit the answer is every account: Admin's alone, like the CSV.
      if (request.query.limit === undefined && !holdsRight(request, 'membersExport')) {
        throw new HttpError(403, ROLE_TEXTS.wholeDirectory);
      }
      return sendJsonText(reply, await lists.directory(memberDirectoryList, request.query));
    },
  });
  app.get('/api/admin/members/:id', {
    config: readMembers,
    schema: {
      tags: ['admin'],
      summary: 'One member: details, groups, orders, subscriptions, sessions and security activity',
      params: memberIdParamsSchema,
      response: answers(adminMemberDetailsSchema),
    },
    handler: async (request) => {
      embeddedOnly();
      const details = await members.details(request.params.id);
      await members.recordRead(actorOf(request), 'member-details-read', request.params.id, {
        read: ['details', 'groups', 'orders', 'subscriptions', 'sessions', 'activity'],
      });
      return ok(details);
    },
  });
  app.get('/api/admin/members/:id/orders', {
    config: readMembers,
    schema: {
      tags: ['admin'],
      summary: "A member's orders, newest first: all, or a page (limit, cursor, q, sort), or CSV",
      params: memberIdParamsSchema,
      querystring: exportableListQuerySchema('paymentHistory'),
      response: answers(paymentHistoryEntrySchema),
    },
    handler: async (request, reply) => {
      embeddedOnly();
      if (request.query.format === 'csv') requireRight(request, 'membersExport');
      const { id } = request.params;
      await members.assertExists(id);
      const { format, q, cursor } = request.query;
      await members.recordRead(actorOf(request), 'member-orders-read', id, {
        ...(format === 'csv' ? { format } : {}),
        ...(q ? { q } : {}),
        ...(cursor ? { cursor } : {}),
      });
      if (request.query.format === 'csv') {
        return lists.csv(
          reply,
          paymentHistoryList,
          request.query,
          {
            name: 'orders',
            fields: Object.keys(paymentHistoryEntrySchema.shape),
          },
          [id],
        );
      }
      return sendJsonText(reply, await lists.member(paymentHistoryList, request.query, [id]));
    },
  });
  app.get('/api/admin/members/:id/activity', {
    config: readMembers,
    schema: {
      tags: ['admin'],
      summary: "A member's security activity of the last 90 days, newest first: all, or a page (limit, cursor, q)",
      params: memberIdParamsSchema,
      querystring: listQuerySchema('activity'),
      response: answers(securityActivitySchema),
    },
    handler: async (request, reply) => {
      embeddedOnly();
      const { id } = request.params;
      await members.assertExists(id);
      const { q, cursor } = request.query;
      // Reading more of what the member's page shows: recorded as that page's read is.
      await members.recordRead(actorOf(request), 'member-details-read', id, {
        read: ['activity'],
        ...(q ? { q } : {}),
        ...(cursor ? { cursor } : {}),
      });
      return sendJsonText(reply, await lists.fresh(activityList, request.query, [id]));
    },
  });
  app.post('/api/admin/members/:id/end-sessions', {
    config: sensitive,
    schema: {
      tags: ['admin'],
      summary: 'End every session of a member: their tokens stop working at once (audited)',
      params: memberIdParamsSchema,
      response: answers(z.never()),
    },
    handler: async (request) => {
      embeddedOnly();
      await members.endSessions(actorOf(request), request.params.id, mayActOn(request));
      return ok([], MEMBER_MESSAGES.sessionsEnded);
    },
  });
  app.post('/api/admin/members/:id/reset-sign-in-methods', {
    config: sensitive,
    schema: {
      tags: ['admin'],
      summary:
        "Remove a member's authenticator app, passkeys and recovery codes and end their sessions (audited, mailed)",
      params: memberIdParamsSchema,
      response: answers(z.never()),
    },
    handler: async (request) => {
      embeddedOnly();
      await members.resetSignInMethods(actorOf(request), request.params.id, originOf(request), mayActOn(request));
      return ok([], MEMBER_MESSAGES.signInMethodsReset);
    },
  });
  app.put('/api/admin/members/:id/groups', {
    config: roles,
    schema: {
      tags: ['admin'],
      summary:
        "Replace a member's groups, console roles included (Admin only; audited, the member is mailed); an administrator " +
        'cannot remove their own Admin group, nor anyone the last Admin group (409)',
      params: memberIdParamsSchema,
      body: memberGroupsSchema,
      response: answers(adminMemberSchema),
    },
    handler: async (request) => {
      embeddedOnly();
      return ok(
        await members.setGroups(actorOf(request), request.params.id, request.body.groups),
        MEMBER_MESSAGES.groupsSaved,
      );
    },
  });
};
