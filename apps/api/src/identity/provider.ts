import type { FastifyInstance } from 'fastify';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { AppConfig } from '../config/env.js';
import type { Database } from '../db/client.js';
import { createAccountService, type AccountService } from './accounts.service.js';
import { createAttemptLimiter } from './attempt-limiter.js';
import {
  accountReadAhead,
  issuesRefreshToken,
  postgresAdapterFactory,
  sealStoredCredentials,
  sessionUseRecorded,
  useLeftOverCode,
  writeHeld,
} from './oidc-adapter.js';
import { originOf } from './security-events.js';
import { ID_TOKEN_TTL_SECONDS, loadProviderKeys, SIGNING_ALG } from './oidc-keys.js';
import { rememberPublicKeyImports } from './public-key-imports.js';
import { NodeSigningKey } from './signing-key.js';
import { logoutPages } from './logout-pages.js';
import { errorPage } from './pages.js';
import { mountProvider, registerProviderAssets } from './provider-mount.js';
import { limitsFor, REMEMBERED, sessionTtl } from './session-lifetime.js';
import type { AccountDeletion } from '../modules/self-service/account-deletion.js';
import type { SecurityService } from './security.service.js';
import { createPasswordResets, registerPasswordReset } from './password-reset.js';
import type { EmailChanges } from './email-change.js';
import { registerEmailChangePages } from './email-change.pages.js';
import { addressBucket, registerSignIn } from './sign-in.js';
import { REVOCATION_MARK_CLAIM } from './revocations.js';
import { userinfoRoutes } from './userinfo.js';
import type { KeyService } from '../secrets/key-service.js';
import type { FactorService } from './factors.js';
import type { PasskeyService } from './passkeys.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves when every forgotten-password request answered so far has been dealt with (the embedded provider's). */
    passwordResetsSettled?: () => Promise<void>;
  }
}

export const SCOPES = ['openid', 'email', 'phone', 'profile'];

/** The claims each scope releases, in ID tokens and at userinfo alike. */
export const claimsByScope = (config: AppConfig): Record<string, string[]> => ({
  // amr and auth_time say how and when the member signed in (RFC 8176, RFC 9470); they come from the sign-in itself.
  openid: ['sub', 'groups', config.auth.roleClaim, 'amr', 'auth_time'],
  email: ['email', 'email_verified'],
  profile: ['name', 'given_name', 'family_name'],
  phone: ['phone_number'],
});

/** Every claim an account has, before a scope picks among them. */
export function accountClaims(
  account: NonNullable<Awaited<ReturnType<AccountService['findById']>>>,
  config: AppConfig,
): Record<string, unknown> {
  return {
    sub: account.accountId,
    email: account.email,
    email_verified: account.emailVerified,
    name: [account.firstName, account.lastName].filter(Boolean).join(' ') || undefined,
    given_name: account.firstName ?? undefined,
    family_name: account.lastName ?? undefined,
    phone_number: account.phoneNumber ?? undefined,
    groups: account.groups,
    [config.auth.roleClaim]: account.role,
  };
}

/** `amr` and `auth_time` of the sign-in a token is issued under: the code's, or the refresh token's. */
function signInMethod(entities: { AuthorizationCode?: unknown; RefreshToken?: unknown }) {
  const source = (entities.AuthorizationCode ?? entities.RefreshToken) as
    { amr?: string[]; authTime?: number } | undefined;
  return {
    ...(source?.amr ? { amr: source.amr } : {}),
    ...(source?.authTime ? { auth_time: source.authTime } : {}),
  };
}

export async function createEmbeddedProvider(
  config: AppConfig,
  db: Database,
  security: SecurityService,
  secrets: KeyService,
) {
  const accounts = createAccountService({ db });
  // A browser's DPoP key is imported once, not at each of its refreshes (decision 044).
  rememberPublicKeyImports();
  const keys = await loadProviderKeys(db, secrets);
  await sealStoredCredentials(db, secrets);
  const { publicUrl } = config;
  const clientId = config.auth.clientId;
  const audience = config.auth.audience;

  /**
   * The account a provider request is about, read once per request with its revocation mark: a token request asks
   * for it when it checks the grant, again for the ID token's claims, and the access token's claims needed it and
   * the mark, three statements more. A revocation after this read leaves the token an older mark, so the token is
   * void sooner, never later.
   */
  const accountsOfRequest = new WeakMap<object, Map<string, ReturnType<typeof accounts.findForTokens>>>();
  const accountFor = (ctx: object, accountId: string) => {
    let read = accountsOfRequest.get(ctx);
    if (!read) accountsOfRequest.set(ctx, (read = new Map()));
    let account = read.get(accountId);
    if (!account) {
      // A token request read it with its code or refresh token, a resume with its interaction (see the adapter's
      // `findWithBindings` and `takeInteraction`).
      const readAhead = accountReadAhead(accountId);
      account = readAhead === undefined ? accounts.findForTokens(accountId) : Promise.resolve(readAhead);
      read.set(accountId, account);
    }
    return account;
  };

  /**
   * The provider session an authorization (or its resume) goes on with names an account that is gone: deleted while
   * signed in, or between its password and the resume. The browser signs in again (or, asked for no prompt, is told
   * that a sign-in is needed): oidc-provider would go on without the account, and fail on the grant it then lacks.
   */
  const signInAgainWithoutGoneAccount = (ctx: KoaContextWithOIDC, accountId: string) => {
    const { route, session } = ctx.oidc ?? {};
    if ((route !== 'authorization' && route !== 'resume') || session?.accountId !== accountId) return;
    // Deleted, as oidc-provider's session refuses an account id set to nothing.
    for (const signedIn of ['accountId', 'loginTs', 'amr', 'acr']) Reflect.deleteProperty(session, signedIn);
    // The clients' grants it held were the gone account's; and set, this marks the session to be saved.
    session.authorizations = {};
  };

  const configuration: Configuration = {
    adapter: postgresAdapterFactory(db, secrets, config.sessions),
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${publicUrl}/auth/callback`, `${publicUrl}/auth/silent-renew`],
        post_logout_redirect_uris: [`${publicUrl}/`, `${publicUrl}/logout-complete`],
        // Every token it gets is bound to the browser's key: the token endpoint refuses a request without a proof.
        dpop_bound_access_tokens: config.auth.dpopBoundClients.includes(clientId),
        id_token_signed_response_alg: SIGNING_ALG,
      },
    ],
    jwks: { keys: keys.signing.map((key) => new NodeSigningKey(key)) },
    cookies: { keys: keys.cookies },
    pkce: { required: () => true },
    scopes: SCOPES,
    claims: claimsByScope(config),
    conformIdTokenClaims: false,
    // Only the web app's own origin may call the provider's endpoints from a browser.
    clientBasedCORS: (_ctx, origin) => origin === new URL(publicUrl).origin,
    // Always: a refresh token's consumption is also what touches its session (decision 044).
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => issuesRefreshToken(client),
    // Refresh tokens expire with their session (no offline_access), so the session's limits bound them too.
    ttl: {
      AccessToken: config.sessions.accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: ID_TOKEN_TTL_SECONDS,
      RefreshToken: REMEMBERED.max,
      Interaction: 3600,
      Session: (_ctx, session) => sessionTtl(limitsFor(config.sessions, session.transient), session.loginTs),
      Grant: REMEMBERED.max,
    },
    findAccount: async (ctx, sub) => {
      const account = await accountFor(ctx, sub);
      if (!account) {
        signInAgainWithoutGoneAccount(ctx, sub);
        return undefined;
      }
      return {
        accountId: account.accountId,
        claims: async () => accountClaims(account, config) as { sub: string },
      };
    },
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = await accountFor(ctx, token.accountId);
      if (!account) return undefined;
      return {
        email: account.email,
        [config.auth.groupsClaim]: account.groups,
        [config.auth.roleClaim]: account.role,
        // The grant is the signed-in browser session: the API voids a session's tokens by it.
        grant_id: (token as { grantId?: string }).grantId,
        // Which of the account's revocations the token was issued after (see REVOCATION_MARK_CLAIM).
        [REVOCATION_MARK_CLAIM]: account.revocationMark,
        // How and when the member signed in (RFC 8176, RFC 9470), from the code or refresh token it was issued for.
        ...signInMethod(ctx.oidc.entities),
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
      // The signing keys are NodeSigningKeys (decision 043). An experimental feature of oidc-provider: its version is
      // acknowledged, so a release that changes it stops the start rather than sign differently.
      externalSigningSupport: { enabled: true, ack: 'experimental-01' },
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
          jwt: { sign: { alg: SIGNING_ALG } },
        }),
      },
      rpInitiatedLogout: { enabled: true, ...logoutPages(publicUrl, clientId) },
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage(String(out['error_description'] ?? out['error'] ?? 'Please try again.'));
    },
  };

  const provider = new Provider(config.auth.issuer, configuration);
  // The forwarding headers the provider sees are the ones Fastify derived under TRUST_PROXY (see the mount below).
  provider.proxy = true;
  {
    provider.use(async (ctx, next) => {
      await next();
      // What the store held for a save that did not come after all goes now, before the response (decision 057): a
      // grant or code held for the session's save, a code noted for its refresh token's. These are gates, not records:
      // a code must be stored before a redirect carries it, so their failure fails the request (logged here, as
      // oidc-provider's own are). Only a request that failed already keeps its own answer.
      try {
        await writeHeld(db, ctx);
        await useLeftOverCode(db, ctx);
      } catch (error) {
        provider.emit('server_error', ctx, error);
        if (ctx.status < 400) throw error;
      }
      // Where and when each session was used (for the member's devices list), and sign-outs in the activity: after
      // the provider's own work, so a failure here never fails a sign-in or a sign-out. A session saved by the
      // request carried its use already (the store's `oidc_upsert_session_used`, decision 055, with what the request
      // held for it, decision 057); this records the others.
      const route = ctx.oidc?.route;
      const session = ctx.oidc?.session;
      if (!session?.accountId || !session.uid) return;
      const origin = originOf(ctx);
      try {
        // Recorded already when the store saved the session in this request (decision 055).
        if ((route === 'authorization' || route === 'resume') && !session.destroyed && !sessionUseRecorded(ctx)) {
          await security.sessionUsed(session.uid, session.accountId, origin);
        } else if (route === 'end_session_confirm' && session.destroyed) {
          await security.signedOut(session.accountId, origin);
        }
      } catch {
        // Activity is a record, not a gate.
      }
    });
  }
  return { provider, accounts };
}

/** Mounts the provider under its issuer path, with our own sign-in interaction and the pages' files. */
export async function registerEmbeddedProvider(
  app: FastifyInstance,
  {
    config,
    db,
    security,
    deletion,
    secrets,
    factors,
    passkeys,
    emailChanges,
  }: {
    config: AppConfig;
    db: Database;
    security: SecurityService;
    deletion: AccountDeletion;
    secrets: KeyService;
    factors: FactorService | null;
    passkeys: PasskeyService | null;
    emailChanges: EmailChanges | null;
  },
) {
  const { provider, accounts } = await createEmbeddedProvider(config, db, security, secrets);
  // oidc-provider answers its own failures with its error page and tells nobody else: they are logged here.
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: Error) =>
    app.log.error({ err: error, route: ctx.oidc?.route }, 'the identity provider failed a request'),
  );
  const limiter = createAttemptLimiter({ db });
  const mount = mountProvider(app, provider, config, limiter);
  registerProviderAssets(app);
  const secureCookies = new URL(config.publicUrl).protocol === 'https:';
  const resets = createPasswordResets({ db, config, accounts, limiter, security, secrets });
  await registerSignIn(app, {
    provider,
    accounts,
    limiter,
    mount,
    security,
    resets,
    deletion,
    secureCookies,
    factors,
    passkeys,
    mfaRequiredGroups: config.auth.mfaRequiredGroups,
  });
  await registerPasswordReset(app, { resets, mount, publicUrl: config.publicUrl, secureCookies, addressBucket });
  if (emailChanges) {
    await registerEmailChangePages(app, {
      changes: emailChanges,
      mount,
      publicUrl: config.publicUrl,
      issuer: config.auth.issuer,
    });
  }
  await app.register(userinfoRoutes, { accounts, config, mount });
  app.addHook('onClose', () => resets.settled());
  app.decorate('passwordResetsSettled', () => resets.settled());
  return provider;
}
