import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FACTOR_MESSAGES } from '@ums/contracts';
import { hasRight, rolesOf, ROLE_TEXTS, type ConsoleRight, type ConsoleRole } from '@ums/contracts/roles';
import { groupsFromClaim } from '@ums/contracts/claims';
import fp from 'fastify-plugin';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { AppConfig } from '../config/env.js';
import { REVOCATION_MARK_CLAIM, type RevocationCache } from '../identity/revocations.js';
import { checkDpopProof, type CheckedProof, DpopError, type ProofLedger, REPLAYED } from './dpop.js';
import { failureAnswer, toFailure } from './errors.js';
import { HttpError } from './http-errors.js';

/** Who may call a route: anyone, any signed-in person, or a person whose console roles hold the right. */
export type Policy = 'public' | 'member' | ConsoleRight;

export interface AuthUser {
  subject: string;
  email: string | null;
  groups: string[];
  role: string | null;
  /** The console roles the groups carry (see @ums/contracts/roles). */
  roles: ConsoleRole[];
  /** The provider grant (one signed-in browser session) the token belongs to, when the provider says so. */
  grantId: string | null;
  /** The thumbprint of the key the token is bound to (DPoP `cnf.jkt`); null for a bearer token. */
  jkt: string | null;
  /** The client the token was issued to (`client_id`), when the token says. */
  clientId: string | null;
  /** The scopes the token was granted (its `scope` claim). */
  scopes: string[];
  /** How the member signed in (RFC 8176 `amr`: `pwd`, `otp`, `hwk`, `swk`, `mfa`), as far as the token says. */
  amr: string[];
  /** When the member signed in (the token's `auth_time`, epoch seconds); null when the token does not say. */
  authTime: number | null;
}

export interface RouteEntry {
  method: string;
  url: string;
  policy: Policy | undefined;
  /** It needs a recent sign-in (step-up). */
  stepUp: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its policy, for the authorization matrix test. */
    routeTable: RouteEntry[];
  }
  interface FastifyContextConfig {
    /** Who may call the route; every /api route must declare one. */
    policy?: Policy;
    /** A GET that changes state (one the specification names so): its DPoP proof is recorded before it runs. */
    changesState?: boolean;
    /** A sensitive action: it needs a sign-in within STEP_UP_MAX_AGE_SECONDS (RFC 9470 step-up). */
    stepUp?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

export interface AuthOptions {
  config: AppConfig['auth'];
  /** Key set to verify against; by default the issuer's JWKS, found through discovery. */
  keys?: JWTVerifyGetKey;
  /** Least time between two key set fetches; an unknown key id refetches once it has passed. */
  jwksCooldownMs?: number;
  /** Signature algorithms accepted with `keys`; by default those the issuer advertises (RS256 when it says none). */
  algorithms?: string[];
  /** Revoked sessions and accounts; without it no token is refused for having been revoked. */
  revocations?: RevocationCache;
  /** Told of every call refused for a revoked token. */
  onRevokedToken?: () => void;
  /**
   * Checks DPoP proofs for tokens bound to a key: the app's public address (what a proof's `htu` names) and where
   * used proofs are remembered. Without it every bound token is refused.
   */
  dpop?: { publicUrl: string; ledger: ProofLedger };
}

/** Public-key algorithms only: a symmetric or "none" algorithm is never accepted, whatever the issuer says. */
const ASYMMETRIC = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']);
/** What OpenID Connect Discovery says an issuer supports when its document names no algorithm. */
const DEFAULT_ALGORITHMS = ['RS256'];

export interface IssuerKeys {
  keys: JWTVerifyGetKey;
  /** The algorithms the issuer advertises for signing (those in ASYMMETRIC). */
  algorithms: () => Promise<string[]>;
}

/**
 * Resolves the issuer's discovery document and JWKS once; jose caches keys and refetches on an unknown kid. The
 * accepted algorithms are those the issuer advertises in `id_token_signing_alg_values_supported`.
 */
export function remoteIssuerKeys(config: AppConfig['auth'], cooldownMs = 30_000): IssuerKeys {
  let loaded: Promise<{ keySet: JWTVerifyGetKey; algorithms: string[] }> | null = null;
  type Discovery = { jwks_uri?: unknown; id_token_signing_alg_values_supported?: unknown };
  const discover = async (): Promise<Discovery> => {
    const response = await fetch(`${config.issuer}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(3000),
    });
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    return (await response.json()) as Discovery;
  };
  const load = async () => {
    const document = await discover().catch((error: unknown) => {
      // A configured key set works without discovery; then only the default algorithm is accepted.
      if (config.jwksUri) return {} as Discovery;
      throw error;
    });
    const uri = config.jwksUri ?? document.jwks_uri;
    if (typeof uri !== 'string') throw new Error('discovery has no jwks_uri');
    const advertised = Array.isArray(document.id_token_signing_alg_values_supported)
      ? document.id_token_signing_alg_values_supported.filter(
          (a): a is string => typeof a === 'string' && ASYMMETRIC.has(a),
        )
      : [];
    return {
      keySet: createRemoteJWKSet(new URL(uri), { timeoutDuration: 3000, cooldownDuration: cooldownMs }),
      algorithms: advertised.length > 0 ? advertised : DEFAULT_ALGORITHMS,
    };
  };
  const current = () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = null;
      throw error;
    }));
  return {
    keys: async (header, token) => (await current()).keySet(header, token),
    algorithms: async () => (await current()).algorithms,
  };
}

export class RevokedTokenError extends Error {}

export function createTokenVerifier(options: AuthOptions) {
  const { config, revocations } = options;
  const issuer: IssuerKeys = options.keys
    ? { keys: options.keys, algorithms: async () => options.algorithms ?? DEFAULT_ALGORITHMS }
    : remoteIssuerKeys(config, options.jwksCooldownMs);
  return async (token: string): Promise<AuthUser> => {
    const { payload, protectedHeader } = await jwtVerify(token, issuer.keys, {
      issuer: config.issuer,
      algorithms: await issuer.algorithms(),
      clockTolerance: 5,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    // Only access tokens: RFC 9068 typ (embedded provider) or Cognito's token_use.
    const isAccessToken = protectedHeader.typ?.toLowerCase() === 'at+jwt' || payload['token_use'] === 'access';
    if (!isAccessToken || payload['token_use'] === 'id') throw new Error('not an access token');
    const audiences = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
    // Cognito's access tokens carry no aud, only client_id; every other issuer must name this API.
    const forUs =
      audiences.includes(config.audience) ||
      (config.provider === 'cognito' && audiences.length === 0 && payload['client_id'] === config.clientId);
    if (!forUs) throw new Error('token is for another audience');
    const grantId = typeof payload['grant_id'] === 'string' ? payload['grant_id'] : null;
    const mark = payload[REVOCATION_MARK_CLAIM];
    const revocationMark = typeof mark === 'number' && Number.isSafeInteger(mark) ? mark : null;
    if (revocations?.isRevoked({ subject: payload.sub!, grantId, issuedAt: payload.iat!, revocationMark })) {
      throw new RevokedTokenError('token was revoked');
    }
    const groups = groupsFromClaim(payload[config.groupsClaim]);
    const email = payload['email'];
    const role = payload[config.roleClaim];
    const cnf = payload['cnf'] as { jkt?: unknown } | undefined;
    const jkt = typeof cnf?.jkt === 'string' ? cnf.jkt : null;
    if (cnf !== undefined && jkt === null) {
      // Bound to something we cannot check (a certificate, say): never accepted as a bearer token.
      throw new Error('token is bound to a confirmation method this API does not check');
    }
    return {
      subject: payload.sub as string,
      email: typeof email === 'string' ? email : null,
      groups,
      role: typeof role === 'string' ? role : null,
      roles: rolesOf(groups, config.roleGroups),
      grantId,
      jkt,
      clientId: typeof payload['client_id'] === 'string' ? payload['client_id'] : null,
      scopes: typeof payload['scope'] === 'string' ? payload['scope'].split(' ').filter(Boolean) : [],
      amr: Array.isArray(payload['amr']) ? payload['amr'].filter((m): m is string => typeof m === 'string') : [],
      authTime: typeof payload['auth_time'] === 'number' ? payload['auth_time'] : null,
    };
  };
}

/** The access token and the scheme it came with: `Bearer` (RFC 6750) or `DPoP` (RFC 9449). */
function accessToken(request: FastifyRequest): { scheme: 'bearer' | 'dpop'; token: string } | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^(Bearer|DPoP)\s+([A-Za-z0-9\-_.]+)$/i.exec(header.trim());
  if (!match) return null;
  return { scheme: match[1]!.toLowerCase() === 'dpop' ? 'dpop' : 'bearer', token: match[2]! };
}

/** What a sensitive action answers to a sign-in that is not recent enough (the web app signs in again at once). */
export const STEP_UP_MESSAGE = 'For your security, sign in again to do this.';

export const DPOP_REFUSED = 'This request does not prove it comes from the signed-in browser. Please sign in again.';
const DPOP_CHALLENGE = 'DPoP error="invalid_dpop_proof", algs="ES256 EdDSA"';
/** Methods that change nothing on the server (RFC 9110 section 9.2.1). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Checks every /api request against its route's policy before anything else runs. */
export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => {
  const verify = createTokenVerifier(options);
  /** The address a client called, as a proof names it: the public origin and the path, without the query. */
  const publicOrigin = options.dpop ? new URL(options.dpop.publicUrl).origin : '';
  const publicAddress = (target: string) => {
    const query = target.indexOf('?');
    return publicOrigin + (query === -1 ? target : target.slice(0, query));
  };
  /**
   * A token bound to a key (`cnf.jkt`) is accepted only with the DPoP scheme and a valid proof of that key for this
   * very request; a bearer token only with the Bearer scheme (RFC 9449 section 7.1: no downgrade either way).
   */
  async function checkProofOfPossession(
    request: FastifyRequest,
    reply: FastifyReply,
    presented: { scheme: 'bearer' | 'dpop'; token: string },
  ) {
    const jkt = request.user?.jkt ?? null;
    const refuse = (reason: string) => {
      request.log.info({ reason }, 'DPoP proof refused');
      request.user = null;
      reply.header('www-authenticate', DPOP_CHALLENGE);
      return new HttpError(401, DPOP_REFUSED);
    };
    if (jkt === null) {
      // The embedded provider binds every token it issues (decision 026), and a client another provider binds never
      // holds a bearer token: one without a key was made or taken elsewhere.
      const clientId = request.user?.clientId ?? null;
      if (options.config.embedded || (clientId !== null && options.config.dpopBoundClients.includes(clientId))) {
        throw refuse('token without cnf.jkt from an issuer or client that binds them');
      }
      if (presented.scheme === 'dpop') {
        throw new HttpError(401, 'The access token is not bound to a key: send it as a bearer token.');
      }
      return;
    }
    const proofs = request.headers['dpop'];
    if (presented.scheme !== 'dpop') throw refuse('bound token sent as a bearer token');
    if (typeof proofs !== 'string' || !proofs) throw refuse('no DPoP proof');
    if (!options.dpop) throw refuse('this API does not check DPoP proofs');
    const { ledger } = options.dpop;
    let checked: CheckedProof;
    try {
      checked = checkDpopProof(proofs, {
        method: request.method,
        url: publicAddress(request.url),
        accessToken: presented.token,
        jkt,
      });
    } catch (error) {
      if (error instanceof DpopError) throw refuse(error.message);
      throw error;
    }
    const firstUse = ledger.firstUse(checked.ledgerKey, checked.expiresAt);
    if (SAFE_METHODS.has(request.method) && !request.routeOptions.config.changesState) {
      // A read changes nothing: it runs while the proof is recorded, and its answer waits for the verdict.
      proofVerdicts.set(request, firstUse);
      firstUse.catch(() => undefined);
      return;
    }
    if (!(await firstUse)) throw refuse(REPLAYED);
  }

  /** Reads whose proof is still being recorded: the answer goes only if it was the proof's first use. */
  const proofVerdicts = new WeakMap<FastifyRequest, Promise<boolean>>();
  app.addHook('onSend', async (request, reply, payload) => {
    const verdict = proofVerdicts.get(request);
    if (!verdict) return payload;
    proofVerdicts.delete(request);
    let firstUse: boolean;
    try {
      firstUse = await verdict;
    } catch (error) {
      // The proof could not be recorded (the database is down): without knowing it was its first use, the answer
      // does not go. Answered here, as the envelope: an error thrown from onSend would skip the error handler.
      request.log.error({ err: error }, 'DPoP proof not recorded');
      return failureAnswer(request, reply, toFailure(error));
    }
    if (firstUse) return payload;
    request.log.info({ reason: REPLAYED }, 'DPoP proof refused');
    reply.header('www-authenticate', DPOP_CHALLENGE);
    return failureAnswer(request, reply, { status: 401, message: DPOP_REFUSED });
  });

  app.decorateRequest('user', null);
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);

  app.addHook('onRoute', (route) => {
    // The OpenAPI document and its page are public.
    if (route.url.startsWith('/api/docs')) route.config = { ...route.config, policy: 'public' };
    if (route.url.startsWith('/api') && !route.config?.policy) {
      throw new Error(`Route ${String(route.method)} ${route.url} has no access policy`);
    }
    for (const method of [route.method].flat()) {
      routeTable.push({ method, url: route.url, policy: route.config?.policy, stepUp: route.config?.stepUp === true });
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    // API answers are never stored by a browser or a proxy, errors and unknown addresses included;
    // a public route may relax this for itself (GET /api/config answers no-cache).
    if (request.url.startsWith('/api/') && !request.url.startsWith('/api/docs'))
      reply.header('cache-control', 'no-store');
    const policy = request.routeOptions.config.policy;
    if (!policy || policy === 'public') return;
    const presented = accessToken(request);
    if (!presented) {
      throw new HttpError(401, 'Sign in to continue: this call needs a bearer access token');
    }
    try {
      request.user = await verify(presented.token);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      request.log.info({ reason: (error as Error).message }, 'token refused');
      if (error instanceof RevokedTokenError) options.onRevokedToken?.();
      throw new HttpError(
        401,
        error instanceof RevokedTokenError
          ? 'Your session has ended. Please sign in again.'
          : error instanceof joseErrors.JWTExpired
            ? 'Your session has expired. Please sign in again.'
            : 'The access token is not valid. Please sign in again.',
      );
    }
    await checkProofOfPossession(request, reply, presented);
    const { config } = options;
    if (policy !== 'member') {
      const { roles, amr } = request.user;
      if (!hasRight(roles, policy)) throw new HttpError(403, ROLE_TEXTS.lacks(policy));
      // MFA_REQUIRED_GROUPS: a console role's routes need a sign-in with two factors when its group is listed (the
      // embedded provider's tokens say so in `amr`; another provider enforces its own).
      const needsMfa = roles.some((role) => config.mfaRequiredGroups.includes(config.roleGroups[role]));
      if (config.embedded && needsMfa && !amr.includes('mfa')) {
        throw new HttpError(403, FACTOR_MESSAGES.mfaRequired);
      }
    }
    // Step-up (RFC 9470): a sensitive action needs a recent sign-in; the client signs in again with max_age and
    // comes back. A token that does not say when the member signed in is not recent.
    if (request.routeOptions.config.stepUp) {
      const maxAge = config.stepUpMaxAge;
      const { authTime } = request.user;
      // Whole seconds, as the provider counts max_age: a fraction more would refuse a sign-in the provider still
      // takes as recent, and its answer would come back as old as it went.
      if (authTime === null || Math.floor(Date.now() / 1000) - authTime > maxAge) {
        const scheme = presented.scheme === 'dpop' ? 'DPoP' : 'Bearer';
        reply.header(
          'www-authenticate',
          `${scheme} error="insufficient_user_authentication", error_description="A recent sign-in is required", max_age=${maxAge}`,
        );
        throw new HttpError(401, STEP_UP_MESSAGE);
      }
    }
  });
});

/** Whether the caller's console roles hold the right (a rule inside a route, beyond its policy). */
export function holdsRight(request: FastifyRequest, right: ConsoleRight): boolean {
  return hasRight(requireUser(request).roles, right);
}

/** Refuses (403, "Your role does not include …") a caller whose console roles lack the right. */
export function requireRight(request: FastifyRequest, right: ConsoleRight): void {
  if (!holdsRight(request, right)) throw new HttpError(403, ROLE_TEXTS.lacks(right));
}

export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new HttpError(401, 'Sign in to continue');
  return request.user;
}
