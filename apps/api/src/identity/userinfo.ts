import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../config/env.js';
import { requireUser } from '../plugins/auth.js';
import { HttpError } from '../plugins/http-errors.js';
import type { AccountService } from './accounts.service.js';
import { accountClaims, claimsByScope } from './provider.js';

export const USERINFO_MESSAGES = {
  noOpenid: 'The access token was not granted the openid scope, which userinfo needs.',
  noAccount: 'The account of this access token no longer exists. Please sign in again.',
} as const;

/**
 * The provider's userinfo endpoint (OpenID Connect Core 5.3), answered by us: the access token the web client gets
 * is a JWT for the API (RFC 9068), which oidc-provider's own userinfo refuses for its audience. The token is checked
 * exactly as the API checks it (signature, issuer, audience, expiry, revocation, and a DPoP proof of this address
 * for a bound token, RFC 9449), and the answer holds the claims of the scopes it was granted.
 */
export const userinfoRoutes: FastifyPluginAsync<{
  accounts: AccountService;
  config: AppConfig;
  mount: string;
}> = async (app, { accounts, config, mount }) => {
  const byScope = claimsByScope(config);
  // RFC 6750 section 3: a refused token is named in WWW-Authenticate (a DPoP refusal already carries its own).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 401 && !reply.hasHeader('www-authenticate')) {
      reply.header('www-authenticate', 'Bearer error="invalid_token"');
    }
    return payload;
  });
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: `${mount}/me`,
      config: { policy: 'member' },
      schema: { hide: true },
      handler: async (request, reply) => {
        const user = requireUser(request);
        if (!user.scopes.includes('openid')) {
          reply.header('www-authenticate', 'Bearer error="insufficient_scope", scope="openid"');
          throw new HttpError(403, USERINFO_MESSAGES.noOpenid);
        }
        const account = await accounts.findById(user.subject);
        if (!account) throw new HttpError(401, USERINFO_MESSAGES.noAccount);
        const all = accountClaims(account, config);
        const released = new Set(user.scopes.flatMap((scope) => byScope[scope] ?? []));
        const claims = Object.fromEntries(
          Object.entries(all).filter(([name, value]) => released.has(name) && value !== undefined),
        );
        return reply.header('cache-control', 'no-store').send({ ...claims, sub: account.accountId });
      },
    });
  }
};
