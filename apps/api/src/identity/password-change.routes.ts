import { confirmationCodeSchema, ok } from '@ums/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../plugins/auth.js';
import { answers } from '../modules/envelope-schema.js';
import { originOf } from './security-events.js';
import { PASSWORD_MESSAGES, type createPasswordChangeService } from './password-change.js';

const bodySchema = z.strictObject({
  previousPassword: z
    .string({ error: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(1024),
  proposedPassword: z.string({ error: 'New password is required' }).min(1, 'New password is required').max(1024),
  code: confirmationCodeSchema,
});

export const passwordChangeRoutes: FastifyPluginAsyncZod<{
  passwords: ReturnType<typeof createPasswordChangeService>;
}> = async (app, { passwords }) => {
  app.post('/api/PasswordReset', {
    config: { policy: 'member' },
    schema: {
      tags: ['account'],
      summary: "Change the caller's password (current password required)",
      body: bodySchema,
      response: answers(z.never()),
    },
    handler: async (request) => {
      // The token itself, whichever scheme carried it (Cognito's ChangePassword takes the access token).
      const token = request.headers.authorization!.replace(/^(Bearer|DPoP)\s+/i, '');
      await passwords.change(requireUser(request), token, request.body, originOf(request));
      return ok([], PASSWORD_MESSAGES.changed);
    },
  });
};
