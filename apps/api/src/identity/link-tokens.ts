import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The tokens of the links we mail (a forgotten password, an email change and its undoing): 256 random bits in
 * base64url. Only their SHA-256 is stored, so the database cannot open an account.
 */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const newLinkToken = () => randomBytes(32).toString('base64url');
export const linkTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A page of the provider that a mailed link opens: never cached, and no Referer (its address carries the token). */
export const linkPage = (reply: FastifyReply, status: number, body: string) =>
  reply
    .status(status)
    .type('text/html')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(body);

/** The provider's own pages: public, and out of the API docs. */
export const PAGE_ROUTE = { config: { policy: 'public' as const }, schema: { hide: true } };

/** The pages' forms post `application/x-www-form-urlencoded`: read as a plain record of strings. */
export function acceptForms(scope: FastifyInstance) {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
}
