import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type Provider from 'oidc-provider';
import type { AppConfig } from '../config/env.js';
import { attemptKey, type AttemptLimiter } from './attempt-limiter.js';
import {
  FONT_FILES,
  PASSWORD_CHECKLIST_SCRIPT,
  PASSWORD_CHECKLIST_SOURCE,
  PASSKEY_SCRIPT,
  PASSKEY_SCRIPT_SOURCE,
  SIGN_OUT_SCRIPT,
  SIGN_OUT_SCRIPT_SOURCE,
  errorPage,
  IDENTITY_BUSY,
  TOO_MANY_ATTEMPTS,
  WEBAUTHN_SCRIPT,
} from './pages.js';
import { addressBucket } from './sign-in.js';
import { SIGNING_ALG } from './oidc-keys.js';
import { identityQueue } from './identity-queue.js';

/**
 * Authorization requests one address may start in 15 minutes. Each one that is not signed in yet stores an
 * interaction for an hour: unbounded, anyone could fill the database with them. A person signing in makes two or
 * three; a whole office behind one address signs in many times over before meeting it.
 */
export const AUTHORIZATIONS_PER_ADDRESS = { max: 300, windowMs: 15 * 60 * 1000 } as const;
const isLoopback = (ip: string) => /^(127\.|::1$|::ffff:127\.)/.test(ip);

/** @simplewebauthn/browser's UMD build: beside its CommonJS entry (the package exports no other path). */
function webauthnBrowserBundle(): string {
  const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
  return path.join(
    entry.slice(0, entry.lastIndexOf(`${path.sep}script${path.sep}`)),
    'dist',
    'bundle',
    'index.umd.min.js',
  );
}

/** The provider pages' scripts, by file name. */
const SCRIPTS: Record<string, string> = {
  [SIGN_OUT_SCRIPT]: SIGN_OUT_SCRIPT_SOURCE,
  [PASSWORD_CHECKLIST_SCRIPT]: PASSWORD_CHECKLIST_SOURCE,
  [PASSKEY_SCRIPT]: PASSKEY_SCRIPT_SOURCE,
  // @simplewebauthn/browser's own browser build (a global, SimpleWebAuthnBrowser), served from here like the fonts.
  [WEBAUTHN_SCRIPT]: readFileSync(webauthnBrowserBundle(), 'utf8'),
};

/**
 * The answer to an identity request when too many wait (decision 038): 503 with Retry-After; a browser gets the
 * provider's error page, the endpoints' callers (the token endpoint's) OAuth's error.
 */
export function answerBusy(request: FastifyRequest, reply: FastifyReply): void {
  reply.code(503).header('cache-control', 'no-store').header('retry-after', '2');
  void (request.headers.accept?.includes('text/html')
    ? reply.type('text/html').send(errorPage(IDENTITY_BUSY))
    : reply.send({ error: 'temporarily_unavailable', error_description: IDENTITY_BUSY }));
}

/** The path the provider answers under: the issuer's (/oidc by default). */
export const providerMountPath = (config: AppConfig) => new URL(config.auth.issuer).pathname.replace(/\/$/, '');

/**
 * The address an identity request is counted under, by the queue's share (decision 038) and the authorizations' limit:
 * an IPv4 address or an IPv6 /64, as the sign-in limits count them. This machine itself (or a proxy on it that
 * TRUST_PROXY does not name, through which every member would come from one address) is not counted: null.
 */
export const countedAddress = (request: FastifyRequest): string | null =>
  isLoopback(request.ip) ? null : addressBucket(request.ip);

/**
 * A sign-out address (`/session/end?…`) without an ID token hint signed by a retired key's algorithm (decision 043).
 * The provider checks a hint only against the algorithm the client's ID tokens are signed with now, so a hint the
 * browser kept from before an upgrade from RS256 would stop sign-out on an error page, and leave the provider's
 * session open. Without it, the member is asked to confirm the sign-out, as for any link that names no session of
 * theirs; the hint's audience stays as `client_id`, so the registered address to return to still applies. A hint that
 * is not a JWT at all is left to the provider to refuse.
 */
export function withoutOlderHint(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  const hint = params.get('id_token_hint');
  if (!hint) return url;
  let alg: unknown;
  let audience: unknown;
  try {
    alg = decodeProtectedHeader(hint).alg;
    audience = decodeJwt(hint).aud;
  } catch {
    return url;
  }
  if (alg === SIGNING_ALG) return url;
  params.delete('id_token_hint');
  if (!params.has('client_id') && typeof audience === 'string') params.set('client_id', audience);
  return `${url.slice(0, query)}?${params}`;
}

/**
 * Hands every request under the issuer's path (but our own sign-in and password pages) to the provider, which answers on
 * the raw Node request; returns the mount path.
 */
export function mountProvider(
  app: FastifyInstance,
  provider: Provider,
  config: AppConfig,
  limiter: AttemptLimiter,
): string {
  const callback = provider.callback();
  const mount = providerMountPath(config);
  const publicUrl = new URL(config.publicUrl);
  /**
   * Ours under the provider's path: the sign-in interaction, forgotten passwords, the email change's links and
   * userinfo (for the API's tokens).
   */
  const ours = [`${mount}/interaction/`, `${mount}/password/`, `${mount}/email/`, `${mount}/me`];

  const authorize = `${mount}/auth`;
  const startsFlow = (url: string) => url === authorize || url.startsWith(`${authorize}?`);
  // The web app opens sign-out with GET (oidc-client-ts's signoutRedirect); a form's POST is passed on as it is.
  const signOut = `${mount}/session/end`;

  // First of the identity hooks: a request waits for its turn before anything else is done for it.
  const queue = identityQueue({
    isIdentity: (url) => url.startsWith(`${mount}/`),
    startsFlow,
    addressOf: countedAddress,
    busy: answerBusy,
  });
  app.addHook('onRequest', queue.hook);

  app.addHook('onRequest', async (request, reply) => {
    let url = request.raw.url ?? '';
    if (!url.startsWith(`${mount}/`) || ours.some((prefix) => url.startsWith(prefix))) return;
    // An address's authorization requests are limited; this machine's are not counted.
    const address = startsFlow(url) ? countedAddress(request) : null;
    if (address !== null) {
      const reserved = await limiter.reserve([
        { key: attemptKey('authorize', address), ...AUTHORIZATIONS_PER_ADDRESS },
      ]);
      if (!reserved.reserved) {
        return reply.code(429).type('text/html').header('cache-control', 'no-store').send(errorPage(TOO_MANY_ATTEMPTS));
      }
    }
    if (request.method === 'GET' && url.startsWith(`${signOut}?`)) url = withoutOlderHint(url);
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
  return mount;
}

/** The provider pages' own files: their scripts and the self-hosted fonts. */
export function registerProviderAssets(app: FastifyInstance): void {
  const require = createRequire(import.meta.url);
  const fontPath = (file: string) => require.resolve(`@fontsource/${file.split('-')[0]}/files/${file}`);
  app.get('/oidc-assets/:file', { config: { policy: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    const script = SCRIPTS[file];
    if (script) return reply.type('text/javascript').header('cache-control', 'no-cache').send(script);
    if (!(FONT_FILES as readonly string[]).includes(file)) return reply.callNotFound();
    return reply
      .type('font/woff2')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(await readFile(fontPath(file)));
  });
}
