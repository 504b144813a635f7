import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { AppConfig } from '../config/env.js';
import { HttpError } from './http-errors.js';

export type Policy = 'public' | 'member' | 'admin';

export interface AuthUser {
  subject: string;
  email: string | null;
  groups: string[];
  role: string | null;
  isAdmin: boolean;
}

export interface RouteEntry {
  method: string;
  url: string;
  policy: Policy | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its policy, for the authorization matrix test. */
    routeTable: RouteEntry[];
  }
  interface FastifyContextConfig {
    /** Who may call the route; every /api route must declare one. */
    policy?: Policy;
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
}

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'EdDSA'];

/** Resolves the issuer's JWKS once (discovery when no URI is configured); jose caches keys and refetches on an unknown kid. */
export function remoteKeySet(config: AppConfig['auth'], cooldownMs = 30_000): JWTVerifyGetKey {
  let keySet: Promise<JWTVerifyGetKey> | null = null;
  const load = async (): Promise<JWTVerifyGetKey> => {
    let uri = config.jwksUri;
    if (!uri) {
      const response = await fetch(`${config.issuer}/.well-known/openid-configuration`, {
        signal: AbortSignal.timeout(3000),
      });
      if (!response.ok) throw new Error(`discovery answered ${response.status}`);
      const document = (await response.json()) as { jwks_uri?: unknown };
      if (typeof document.jwks_uri !== 'string') throw new Error('discovery has no jwks_uri');
      uri = document.jwks_uri;
    }
    return createRemoteJWKSet(new URL(uri), { timeoutDuration: 3000, cooldownDuration: cooldownMs });
  };
  return async (header, token) => {
    keySet ??= load().catch((error: unknown) => {
      keySet = null;
      throw error;
    });
    return (await keySet)(header, token);
  };
}

function groupsOf(payload: JWTPayload, claim: string): string[] {
  const value = payload[claim];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return [];
}

export function createTokenVerifier(options: AuthOptions) {
  const { config } = options;
  const keys = options.keys ?? remoteKeySet(config, options.jwksCooldownMs);
  return async (token: string): Promise<AuthUser> => {
    const { payload, protectedHeader } = await jwtVerify(token, keys, {
      issuer: config.issuer,
      algorithms: ALGORITHMS,
      clockTolerance: 5,
      requiredClaims: ['sub', 'exp'],
    });
    // Only access tokens: RFC 9068 typ (embedded provider) or Cognito's token_use.
    const isAccessToken = protectedHeader.typ?.toLowerCase() === 'at+jwt' || payload['token_use'] === 'access';
    if (!isAccessToken || payload['token_use'] === 'id') throw new Error('not an access token');
    const audiences = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
    const forUs =
      audiences.includes(config.audience) || (audiences.length === 0 && payload['client_id'] === config.clientId);
    if (!forUs) throw new Error('token is for another audience');
    const groups = groupsOf(payload, config.groupsClaim);
    const email = payload['email'];
    const role = payload[config.roleClaim];
    return {
      subject: payload.sub as string,
      email: typeof email === 'string' ? email : null,
      groups,
      role: typeof role === 'string' ? role : null,
      isAdmin: groups.includes(config.adminGroup),
    };
  };
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9\-_.]+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/** Checks every /api request against its route's policy before anything else runs. */
export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => {
  const verify = createTokenVerifier(options);
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
      routeTable.push({ method, url: route.url, policy: route.config?.policy });
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    // API answers are never stored by a browser or a proxy, errors and unknown addresses included;
    // a public route may relax this for itself (GET /api/config answers no-cache).
    if (request.url.startsWith('/api/') && !request.url.startsWith('/api/docs'))
      reply.header('cache-control', 'no-store');
    const policy = request.routeOptions.config.policy;
    if (!policy || policy === 'public') return;
    const token = bearerToken(request);
    if (!token) {
      throw new HttpError(401, 'Sign in to continue: this call needs a bearer access token');
    }
    try {
      request.user = await verify(token);
    } catch (error) {
      const expired = error instanceof joseErrors.JWTExpired;
      request.log.info({ reason: (error as Error).message }, 'token refused');
      throw new HttpError(
        401,
        expired
          ? 'Your session has expired. Please sign in again.'
          : 'The access token is not valid. Please sign in again.',
      );
    }
    if (policy === 'admin' && !request.user.isAdmin) {
      throw new HttpError(403, `You need to be in the '${options.config.adminGroup}' group to do this`);
    }
  });
});

export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new HttpError(401, 'Sign in to continue');
  return request.user;
}
