import type { FastifyInstance, FastifyReply } from 'fastify';
import type { EmailChanges, LinkRefusal } from './email-change.js';
import { acceptForms, linkPage, PAGE_ROUTE } from './link-tokens.js';
import { emailConfirmedPage, emailConfirmPage, emailLinkInvalidPage, emailRevertPage } from './pages.js';
import { resetLinkUrl } from './password-reset.js';
import { originOf } from './security-events.js';

/**
 * The provider's pages the email change's mails link to: confirming a new address (`/email/confirm?token=...`) and
 * restoring the old one (`/email/revert?token=...`). Each shows what it will do and does it only when its one button
 * is pressed (a mail scanner that opens links changes nothing); they work signed out, and the token in the form is
 * the only credential (no cookie is read, so a forged form could only use a token its author already has).
 */
export async function registerEmailChangePages(
  app: FastifyInstance,
  { changes, mount, publicUrl, issuer }: { changes: EmailChanges; mount: string; publicUrl: string; issuer: string },
) {
  const confirmPath = `${mount}/email/confirm`;
  const revertPath = `${mount}/email/revert`;
  const appUrl = `${publicUrl}/`;
  const invalid = (reply: FastifyReply, refusal: LinkRefusal) =>
    linkPage(reply, refusal.status, emailLinkInvalidPage(refusal.refused, appUrl));
  const tokenIn = (source: unknown) => String((source as Record<string, unknown> | undefined)?.['token'] ?? '');

  await app.register(async (scope) => {
    acceptForms(scope);

    scope.get(confirmPath, PAGE_ROUTE, async (request, reply) => {
      const token = tokenIn(request.query);
      const change = await changes.inspectConfirmation(token);
      if ('refused' in change) return invalid(reply, change);
      return linkPage(reply, 200, emailConfirmPage(confirmPath, token, change.newEmail));
    });

    scope.post(confirmPath, PAGE_ROUTE, async (request, reply) => {
      const outcome = await changes.confirm(tokenIn(request.body), originOf(request));
      if ('refused' in outcome) return invalid(reply, outcome);
      return linkPage(reply, 200, emailConfirmedPage(outcome.newEmail, appUrl));
    });

    scope.get(revertPath, PAGE_ROUTE, async (request, reply) => {
      const token = tokenIn(request.query);
      const change = await changes.inspectRevert(token);
      if ('refused' in change) return invalid(reply, change);
      return linkPage(reply, 200, emailRevertPage(revertPath, token, change.oldEmail, change.newEmail));
    });

    scope.post(revertPath, PAGE_ROUTE, async (request, reply) => {
      const outcome = await changes.revert(tokenIn(request.body), originOf(request));
      if ('refused' in outcome) return invalid(reply, outcome);
      // The member chooses a new password at once, through a link of their own (they hold the old mailbox).
      return reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .redirect(resetLinkUrl(issuer, outcome.resetToken), 303);
    });
  });
}
