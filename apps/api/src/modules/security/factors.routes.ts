import {
  factorAddedSchema,
  FACTOR_MESSAGES,
  ok,
  passkeyAddedSchema,
  passkeyIdParamsSchema,
  passkeyOptionsSchema,
  passkeyRegistrationBodySchema,
  passkeyRenameBodySchema,
  PASSKEY_MESSAGES,
  recoveryCodesIssuedSchema,
  securityFactorsSchema,
  totpCodeBodySchema,
  totpSetupSchema,
} from '@ums/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountService } from '../../identity/accounts.service.js';
import type { FactorService } from '../../identity/factors.js';
import type { PasskeyService } from '../../identity/passkeys.js';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { originOf } from '../../identity/security-events.js';
import { requireUser } from '../../plugins/auth.js';
import { HttpError } from '../../plugins/http-errors.js';
import { answers } from '../envelope-schema.js';

const member = { policy: 'member' as const };
/** Adding or removing a factor, or new recovery codes: a recent sign-in first (RFC 9470 step-up). */
const sensitive = { policy: 'member' as const, stepUp: true };
/** What the Security section says when another provider keeps the member's sign-in methods. */
export const FACTORS_MANAGED_ELSEWHERE = 'Your sign-in methods are managed by your identity provider.';

/**
 * The member's second factors on the embedded provider: the list, the authenticator app (set up, confirmed with a
 * first code, removed) and recovery codes made anew. Another provider keeps its own: 501 with a sentence.
 */
export const factorRoutes: FastifyPluginAsyncZod<{
  factors: FactorService | null;
  passkeys: PasskeyService | null;
  accounts: AccountService;
}> = async (app, { factors, passkeys, accounts }) => {
  const service = () => {
    if (!factors) throw new HttpError(501, FACTORS_MANAGED_ELSEWHERE);
    return factors;
  };
  const passkeyService = () => {
    if (!passkeys) throw new HttpError(501, FACTORS_MANAGED_ELSEWHERE);
    return passkeys;
  };
  /** The account's email, for the authenticator app's label (the token's claim may be absent). */
  const emailOf = async (subject: string) => (await accounts.findById(subject))?.email ?? subject;

  app.get('/api/security/factors', {
    config: member,
    schema: {
      tags: ['security'],
      summary: "The caller's second factors: passkeys, the authenticator app and how many recovery codes remain",
      response: answers(securityFactorsSchema),
    },
    handler: async (request) => ok(await service().list(requireUser(request).subject)),
  });

  app.post('/api/security/totp/setup', {
    config: sensitive,
    schema: {
      tags: ['security'],
      summary: 'Start setting up an authenticator app: a new key, waiting for its first code',
      response: answers(totpSetupSchema),
    },
    handler: async (request) => {
      const user = requireUser(request);
      const setup = await service().startTotp(user.subject, await emailOf(user.subject));
      return ok(setup, FACTOR_MESSAGES.totpSetupStarted);
    },
  });

  app.post('/api/security/totp', {
    config: sensitive,
    schema: {
      tags: ['security'],
      summary:
        "Turn the authenticator app on with its first code (the recovery codes, if it is the account's first factor)",
      body: totpCodeBodySchema,
      response: answers(factorAddedSchema),
    },
    handler: async (request) => {
      const user = requireUser(request);
      const added = await service().confirmTotp(
        user.subject,
        await emailOf(user.subject),
        request.body.code,
        originOf(request),
      );
      return ok(added, FACTOR_MESSAGES.totpEnabled);
    },
  });

  app.delete('/api/security/totp', {
    config: sensitive,
    schema: { tags: ['security'], summary: 'Turn the authenticator app off', response: answers(z.never()) },
    handler: async (request) => {
      await service().removeTotp(requireUser(request).subject, originOf(request));
      return ok([], FACTOR_MESSAGES.totpRemoved);
    },
  });

  app.post('/api/security/recovery-codes', {
    config: sensitive,
    schema: {
      tags: ['security'],
      summary: 'Make ten new recovery codes, shown once: the old ones stop working',
      response: answers(recoveryCodesIssuedSchema),
    },
    handler: async (request) => {
      const codes = await service().regenerateRecoveryCodes(requireUser(request).subject, originOf(request));
      return ok({ recoveryCodes: codes }, FACTOR_MESSAGES.codesRegenerated);
    },
  });

  app.post('/api/security/passkeys/options', {
    config: sensitive,
    schema: {
      tags: ['security'],
      summary: "Options to create a passkey (resident key, user verification, the caller's passkeys excluded)",
      response: answers(passkeyOptionsSchema),
    },
    handler: async (request) => {
      const user = requireUser(request);
      const options = await passkeyService().registrationOptions(user.subject, await emailOf(user.subject));
      // The browser takes the options as they are: JSON that @simplewebauthn/browser hands to the authenticator.
      return ok<Record<string, unknown>>({ ...options });
    },
  });

  app.post('/api/security/passkeys', {
    config: sensitive,
    schema: {
      tags: ['security'],
      summary: "Register the browser's new passkey under a name (the recovery codes, if it is the first factor)",
      body: passkeyRegistrationBodySchema,
      response: answers(passkeyAddedSchema),
    },
    handler: async (request) => {
      const user = requireUser(request);
      const added = await passkeyService().register(
        user.subject,
        request.body.response as unknown as RegistrationResponseJSON,
        request.body.name,
        originOf(request),
      );
      return ok(added, PASSKEY_MESSAGES.added);
    },
  });

  app.patch('/api/security/passkeys/:id', {
    config: member,
    schema: {
      tags: ['security'],
      summary: "Rename one of the caller's passkeys",
      params: passkeyIdParamsSchema,
      body: passkeyRenameBodySchema,
      response: answers(z.never()),
    },
    handler: async (request) => {
      await passkeyService().rename(requireUser(request).subject, request.params.id, request.body.name);
      return ok([], PASSKEY_MESSAGES.renamed);
    },
  });

  app.delete('/api/security/passkeys/:id', {
    config: sensitive,
    schema: {
      tags: ['security'],
      summary: "Remove one of the caller's passkeys",
      params: passkeyIdParamsSchema,
      response: answers(z.never()),
    },
    handler: async (request) => {
      await passkeyService().remove(requireUser(request).subject, request.params.id, originOf(request));
      return ok([], PASSKEY_MESSAGES.removed);
    },
  });
};
