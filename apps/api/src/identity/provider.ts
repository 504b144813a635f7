import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import Provider, { type Configuration } from 'oidc-provider';
import type { AppConfig } from '../config/env.js';
import type { Database } from '../db/client.js';
import { createAccountService } from './accounts.service.js';
import { createAttemptLimiter } from './attempt-limiter.js';
import { postgresAdapterFactory, sweepExpiredPayloads } from './oidc-adapter.js';
import { loadProviderKeys } from './oidc-keys.js';
import {
  errorPage,
  FONT_FILES,
  page,
  SIGN_IN_ERROR,
  SIGN_OUT_SCRIPT,
  SIGN_OUT_SCRIPT_SOURCE,
  signInPage,
  TOO_MANY_ATTEMPTS,
} from './pages.js';

export const SCOPES = ['openid', 'email', 'phone', 'profile'];
const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60 * 1000;

export async function createEmbeddedProvider(config: AppConfig, db: Database) {
  const accounts = createAccountService({ db });
  const keys = await loadProviderKeys(db);
  const { publicUrl } = config;
  const clientId = config.auth.clientId;
  const audience = config.auth.audience;

  const configuration: Configuration = {
    adapter: postgresAdapterFactory(db),
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${publicUrl}/auth/callback`, `${publicUrl}/auth/silent-renew`],
        post_logout_redirect_uris: [`${publicUrl}/`, `${publicUrl}/logout-complete`],
      },
    ],
    jwks: { keys: keys.signing as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: keys.cookies },
    pkce: { required: () => true },
    scopes: SCOPES,
    claims: {
      openid: ['sub', 'groups', config.auth.roleClaim],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
      phone: ['phone_number'],
    },
    conformIdTokenClaims: false,
    // Only the web app's own origin may call the provider's endpoints from a browser.
    clientBasedCORS: (_ctx, origin) => origin === new URL(publicUrl).origin,
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
    },
    findAccount: async (_ctx, sub) => {
      const account = await accounts.findById(sub);
      if (!account) return undefined;
      return {
        accountId: account.accountId,
        claims: async () => ({
          sub: account.accountId,
          email: account.email,
          email_verified: true,
          name: [account.firstName, account.lastName].filter(Boolean).join(' ') || undefined,
          given_name: account.firstName ?? undefined,
          family_name: account.lastName ?? undefined,
          phone_number: account.phoneNumber ?? undefined,
          groups: account.groups,
          [config.auth.roleClaim]: account.role,
        }),
      };
    },
    extraTokenClaims: async (_ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = await accounts.findById(token.accountId);
      if (!account) return undefined;
      return { email: account.email, [config.auth.groupsClaim]: account.groups, [config.auth.roleClaim]: account.role };
    },
    // Our own client needs no consent screen: grant the requested scopes at once.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope(SCOPES.join(' '));
      grant.addResourceScope(audience, SCOPES.join(' '));
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: SCOPES.join(' '),
          audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 3600,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          // A valid id_token_hint proves our own app asked (the provider checked it): no second question.
          const hinted = Boolean(ctx.oidc.params?.['id_token_hint']);
          ctx.body = page(
            'Sign out',
            `<h1>Sign out</h1><p>${hinted ? 'Signing you out...' : 'Do you want to sign out of your membership account?'}</p>${form.replace(
              '</form>',
              '<button type="submit" name="logout" value="yes">Sign out</button></form>',
            )}${hinted ? `<script src="/oidc-assets/${SIGN_OUT_SCRIPT}"></script>` : ''}`,
          );
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.body = page(
            'Signed out',
            `<h1>Signed out</h1><p>You have been signed out.</p><p><a href="${publicUrl}/">Sign in again</a></p>`,
          );
        },
      },
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage(String(out['error_description'] ?? out['error'] ?? 'Please try again.'));
    },
  };

  const provider = new Provider(config.auth.issuer, configuration);
  provider.proxy = config.trustProxy;
  return { provider, accounts };
}

/** Mounts the provider under /oidc and serves our own sign-in interaction. */
export async function registerEmbeddedProvider(app: FastifyInstance, config: AppConfig, db: Database) {
  const { provider, accounts } = await createEmbeddedProvider(config, db);
  const callback = provider.callback();
  const mount = new URL(config.auth.issuer).pathname.replace(/\/$/, '');
  // Expired sessions, codes and tokens are removed every 10 minutes (and once at start).
  const sweep = () => void sweepExpiredPayloads(db).catch(() => undefined);
  sweep();
  const sweeper = setInterval(sweep, 10 * 60 * 1000);
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));
  const failures = createAttemptLimiter({ db, max: MAX_FAILURES, windowMs: FAILURE_WINDOW_MS });

  app.addHook('onRequest', (request, reply, done) => {
    const url = request.raw.url ?? '';
    if (!url.startsWith(`${mount}/`) || url.startsWith(`${mount}/interaction/`)) return done();
    reply.hijack();
    const raw = request.raw as typeof request.raw & { originalUrl?: string };
    raw.originalUrl = url;
    raw.url = url.slice(mount.length) || '/';
    void callback(raw, reply.raw);
  });

  const require = createRequire(import.meta.url);
  const fontPath = (file: string) => require.resolve(`@fontsource/${file.split('-')[0]}/files/${file}`);
  app.get('/oidc-assets/:file', { config: { policy: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    if (file === SIGN_OUT_SCRIPT) {
      return reply.type('text/javascript').header('cache-control', 'no-cache').send(SIGN_OUT_SCRIPT_SOURCE);
    }
    if (!(FONT_FILES as readonly string[]).includes(file)) return reply.callNotFound();
    return reply
      .type('font/woff2')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(await readFile(fontPath(file)));
  });

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const interactionPath = `${mount}/interaction/:uid`;
    scope.get(interactionPath, { config: { policy: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      if (details.prompt.name !== 'login') {
        // Consent is granted by loadExistingGrant; anything else just continues.
        reply.hijack();
        return provider.interactionFinished(request.raw, reply.raw, {}, { mergeWithLastSubmission: true });
      }
      return reply
        .type('text/html')
        .header('cache-control', 'no-store')
        .send(signInPage(`${mount}/interaction/${details.uid}/login`));
    });
    scope.post(
      `${interactionPath}/login`,
      { config: { policy: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        const details = await provider.interactionDetails(request.raw, reply.raw);
        const body = (request.body ?? {}) as Record<string, string | undefined>;
        const email = String(body['email'] ?? '').trim();
        const password = String(body['password'] ?? '');
        const action = `${mount}/interaction/${details.uid}/login`;
        const emailKey = `email:${email.toLowerCase()}`;
        const ipKey = `ip:${request.ip}`;
        if (await failures.blocked(emailKey, ipKey)) {
          return reply
            .status(429)
            .type('text/html')
            .send(signInPage(action, { email, error: TOO_MANY_ATTEMPTS }));
        }
        const account = email && password ? await accounts.verifyCredentials(email, password) : null;
        if (!account) {
          await failures.record(emailKey, ipKey);
          return reply
            .status(401)
            .type('text/html')
            .send(signInPage(action, { email, error: SIGN_IN_ERROR }));
        }
        await failures.clear(emailKey);
        reply.hijack();
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          { login: { accountId: account.accountId } },
          { mergeWithLastSubmission: false },
        );
      },
    );
  });
  return provider;
}
