import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import Provider, { type Configuration } from 'oidc-provider';
import type { AppConfig } from '../config/env.js';
import type { Database } from '../db/client.js';
import { createAccountService } from './accounts.service.js';
import { createAttemptLimiter } from './attempt-limiter.js';
import { postgresAdapterFactory } from './oidc-adapter.js';
import { loadProviderKeys } from './oidc-keys.js';
import { errorPage, FONT_FILES, page, SIGN_OUT_SCRIPT, SIGN_OUT_SCRIPT_SOURCE } from './pages.js';
import { limitsFor, REMEMBERED, sessionTtl, touchSession } from './session-lifetime.js';
import { registerSignIn } from './sign-in.js';

export const SCOPES = ['openid', 'email', 'phone', 'profile'];

/** Query parameters whose values never reach a log line: tokens, codes, hints that name a person. */
const SECRET_PARAMS =
  /([?&](?:id_token_hint|logout_hint|login_hint|code|code_verifier|access_token|refresh_token|token|state)=)[^&#]*/gi;
export const redactUrl = (url: string) => url.replace(SECRET_PARAMS, '$1[redacted]');

interface HintPayload {
  sub?: unknown;
  sid?: unknown;
}

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
    // Refresh tokens expire with their session (no offline_access), so the session's limits bound them too.
    ttl: {
      AccessToken: config.sessions.accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: REMEMBERED.max,
      Interaction: 3600,
      Session: (_ctx, session) => sessionTtl(limitsFor(config.sessions, session.transient), session.loginTs),
      Grant: REMEMBERED.max,
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
      return {
        email: account.email,
        [config.auth.groupsClaim]: account.groups,
        [config.auth.roleClaim]: account.role,
        // The grant is the signed-in browser session: the API voids a session's tokens by it.
        grant_id: (token as { grantId?: string }).grantId,
      };
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
          accessTokenTTL: config.sessions.accessTokenTtl,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          // The provider checked the hint's signature (an expired one passes). Only a hint for this very session
          // proves our own app asked: then no second question. Anyone else's link gets the confirmation page.
          const hint = (ctx.oidc.entities as { IdTokenHint?: { payload: HintPayload } }).IdTokenHint?.payload;
          const session = ctx.oidc.session;
          const hinted =
            hint !== undefined &&
            session?.accountId !== undefined &&
            hint.sub === session.accountId &&
            (hint.sid === undefined || hint.sid === session.sidFor(clientId));
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
  // The forwarding headers the provider sees are the ones Fastify derived under TRUST_PROXY (see the mount below).
  provider.proxy = true;
  // Using a refresh token is using the session: its idle time starts again.
  provider.on('grant.success', (ctx) => {
    const used = ctx.oidc.entities.RotatedRefreshToken ?? ctx.oidc.entities.RefreshToken;
    if (used?.sessionUid) void touchSession(db, config.sessions, used.sessionUid).catch(() => undefined);
  });
  return { provider, accounts };
}

/** Mounts the provider under /oidc and serves our own sign-in interaction. */
export async function registerEmbeddedProvider(app: FastifyInstance, config: AppConfig, db: Database) {
  const { provider, accounts } = await createEmbeddedProvider(config, db);
  const callback = provider.callback();
  const mount = new URL(config.auth.issuer).pathname.replace(/\/$/, '');
  const publicUrl = new URL(config.publicUrl);

  app.addHook('onRequest', (request, reply, done) => {
    const url = request.raw.url ?? '';
    if (!url.startsWith(`${mount}/`) || url.startsWith(`${mount}/interaction/`)) return done();
    reply.hijack();
    const raw = request.raw as typeof request.raw & { originalUrl?: string };
    // The provider believes only what Fastify worked out under TRUST_PROXY: the client's address, and https when
    // the public address is https (TLS ends at a proxy in front), so its cookies are marked Secure.
    raw.headers['x-forwarded-for'] = request.ip;
    raw.headers['x-forwarded-proto'] = publicUrl.protocol === 'https:' ? 'https' : request.protocol;
    raw.headers['x-forwarded-host'] = publicUrl.host;
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

  await registerSignIn(app, { provider, accounts, limiter: createAttemptLimiter({ db }), mount });
  return provider;
}
