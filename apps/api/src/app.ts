import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { JWTVerifyGetKey } from 'jose';
import { clientConfigSchema, errorEnvelopeSchema, type ClientConfig } from '@ums/contracts';
import { z } from 'zod';
import type { AppConfig } from './config/env.js';
import type { Database } from './db/client.js';
import type { KeyService } from './secrets/key-service.js';
import { providerKeySet } from './identity/oidc-keys.js';
import { createAttemptLimiter, sweepAttempts } from './identity/attempt-limiter.js';
import { sweepExpiredPayloads } from './identity/oidc-adapter.js';
import { registerEmbeddedProvider, SCOPES } from './identity/provider.js';
import { providerMountPath } from './identity/provider-mount.js';
import { keyImportsSeenOnce, rememberedKeyImports } from './identity/public-key-imports.js';
import { answerWebCryptoInPlace } from './identity/webcrypto-in-place.js';
import { registerWebApp } from './web/web-app.js';
import { redactUrl, serializeError } from './plugins/log-redaction.js';
import { createRevocationCache, sweepRevocations } from './identity/revocations.js';
import { createPasswordChangeService } from './identity/password-change.js';
import { sweepPasswordResets } from './identity/password-reset.js';
import { sweepSecurityEvents } from './identity/security-events.js';
import { createSecurityService, sweepSecurityDetails } from './identity/security.service.js';
import { createMailer, sweepSentMail } from './mail/outbox.js';
import { securityRoutes } from './modules/security/security.routes.js';
import { factorRoutes } from './modules/security/factors.routes.js';
import { createFactorService, sweepTotpSteps } from './identity/factors.js';
import { createPasskeyService } from './identity/passkeys.js';
import { createAccountService } from './identity/accounts.service.js';
import { passwordChangeRoutes } from './identity/password-change.routes.js';
import { createEmailChanges, sweepEmailChanges } from './identity/email-change.js';
import { emailChangeRoutes } from './identity/email-change.routes.js';
import { overviewRoutes } from './modules/admin/overview.routes.js';
import { createBusinessMetrics } from './modules/admin/business-metrics.js';
import { businessMetricsRoutes } from './modules/admin/business-metrics.routes.js';
import { createMemberDirectory, memberGroupsEntity } from './modules/admin/members.js';
import { memberDirectoryRoutes } from './modules/admin/members.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { discountPackageEntity, membershipEntity } from './modules/audit/entities.js';
import { createAuditRevert } from './modules/audit/revert.js';
import { createCatalogService } from './modules/catalog/catalog.service.js';
import { catalogRoutes } from './modules/catalog/catalog.routes.js';
import { createDiscountPackageService } from './modules/discount-packages/discount-packages.service.js';
import { discountPackageRoutes } from './modules/discount-packages/discount-packages.routes.js';
import { createMemberService } from './modules/member/member.service.js';
import { memberRoutes } from './modules/member/member.routes.js';
import { createLists } from './modules/lists/lists.js';
import { createMembershipService } from './modules/memberships/memberships.service.js';
import { createAccountDeletion, PURGE_INTERVAL_MS } from './modules/self-service/account-deletion.js';
import { createMyData } from './modules/self-service/my-data.js';
import { createReceipts } from './modules/self-service/receipts.js';
import { selfServiceRoutes } from './modules/self-service/self-service.routes.js';
import { membershipRoutes } from './modules/memberships/memberships.routes.js';
import { authPlugin } from './plugins/auth.js';
import { postgresProofLedger, rememberedDpop, sweepDpopProofs } from './plugins/dpop.js';
import { createMemoryBudget } from './lib/bounded-cache.js';
import { clientErrorHandler, headersSetBy } from './plugins/client-errors.js';
import { errorEnvelopeText, failureAnswer, registerErrorHandling, toFailure, type Failure } from './plugins/errors.js';
import { SERVER_CLOSING } from './plugins/http-errors.js';
import { createMetrics, recordRequests, type Metrics } from './plugins/metrics.js';
import { securityHeaderOptions } from './plugins/security-headers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's metrics registry and counters (served on METRICS_PORT by the server). */
    metrics: Metrics;
  }
}

export interface AppOptions {
  config: AppConfig;
  db: Database;
  /** Built web app to serve, if present. */
  webRoot?: string;
  /** Catalog images and other public files. */
  publicRoot?: string;
  /** The key service that seals secrets at rest (provider keys, stored credentials, mail bodies). */
  secrets: KeyService;
  /** Token keys for tests; production uses the issuer's JWKS. */
  keys?: JWTVerifyGetKey;
  /** Serve the embedded OpenID provider under the issuer's path. */
  embeddedIdentity?: boolean;
  logger?: FastifyServerOptions['logger'];
  /** Deliver queued mail from this process (the server does; tests that read the outbox ask for it). */
  deliverMail?: boolean;
}

/** proxy-addr's meaning of a hop count: trust that many proxies nearest to the server. */
const trustNearest = (hops: number) => (_address: string, index: number) => index < hops;

/** What a request id from a proxy may look like: no spaces, quotes or control characters to forge log lines with. */
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Fastify's own failures that have a sentence of ours; any other (a constraint that failed) is a 500. */
const FRAMEWORK_FAILURES: Record<string, Failure> = {
  FST_ERR_BAD_URL: { status: 400, message: 'The address is malformed: a % in it must start a percent-encoded byte' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: 'The address is too long' },
};

/** A client that found this process closing tries again this many seconds later, on another process. */
const CLOSING_RETRY_AFTER_SECONDS = 1;

/** Expired provider rows, attempts older than a day and spent revocations go every 10 minutes (and once at start). */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** The docs page's Trusted Types policy (see where Swagger UI is registered). */
const DOCS_TRUSTED_TYPES = `if (window.trustedTypes && !trustedTypes.defaultPolicy) {
  trustedTypes.createPolicy('default', { createHTML: (html) => html });
}
`;

export async function buildApp(options: AppOptions) {
  const { config, db } = options;
  // Security headers on every answer, errors included. Helmet's middleware is built once, here: @fastify/helmet built
  // it again for every request (its options checked, the policy's text joined), about 9 µs of CPU for each answer,
  // for headers that never change (decision 049). Its options were checked when it was built; with fixed directives
  // it has no error to pass on.
  const securityHeaders = helmet(securityHeaderOptions(config));
  /** A failure answered before any route's hooks ran: never stored, as the API's answers are not. */
  const sendFailure = (request: FastifyRequest, reply: FastifyReply, failure: Failure) =>
    reply.header('cache-control', 'no-store').send(failureAnswer(request, reply, failure));
  /** Fastify's own failures, answered as every other failure is (see `frameworkErrors` below). */
  const answerFrameworkError = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const failure = FRAMEWORK_FAILURES[error.code] ?? toFailure(error);
    if (failure.status >= 500) request.log.error({ err: error }, 'request failed');
    reply.raw.setHeader('x-request-id', request.id);
    securityHeaders(request.raw, reply.raw, () => sendFailure(request, reply, failure));
  };
  /** Set once the server starts closing: requests that still come on open connections are answered 503. */
  let closing = false;
  /** The answer to the last request each connection carried, for one that then stopped coming (`clientErrorHandler`). */
  const seenAnswers = new WeakMap<Socket, ServerResponse>();
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // Addresses are logged without the tokens, codes and hints some of them carry in their query.
            serializers: {
              req: (request: FastifyRequest) => ({
                method: request.method,
                url: redactUrl(request.url),
                host: request.host,
                remoteAddress: request.ip,
                remotePort: request.socket?.remotePort,
              }),
              err: (error: Error) => serializeError(error),
            },
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    bodyLimit: config.bodyLimit,
    // A request must have come whole within REQUEST_TIMEOUT: Node answers 408 and closes a connection whose request
    // is still arriving then, one already answered (a 401 before its body) included. Fastify's default, 0, waits for
    // ever. Node cuts nothing while its headers' timeout (60 s by default) is longer than the request's (measured on
    // Node 20: a body that stopped stayed open), so the headers get the same time. Fastify sets the request's timeout
    // once the server is made; Node refuses a headers' timeout longer than its own default request timeout (300 s)
    // when the server is made, so both are given then too. Node looks at its connections every 30 s by default, a
    // setting taken only when the server is made: every quarter of the timeout here, so a slow request is cut at most
    // a quarter of it late.
    requestTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(250, Math.floor(config.requestTimeoutMs / 4)),
    },
    // Every request has an id: the caller's X-Request-Id when it comes through a trusted proxy (and looks like an
    // id), otherwise a new one. It is on every log line of the request, the X-Request-Id answer header and errors.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      const trusted = config.trustProxy !== false && typeof given === 'string' && REQUEST_ID.test(given);
      return trusted ? given : randomUUID();
    },
    // A hop count trusts that many proxies nearest to the server (proxy-addr's meaning of a number).
    trustProxy: typeof config.trustProxy === 'number' ? trustNearest(config.trustProxy) : config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // Fastify answers these itself, before any hook runs, in its own JSON and without the security headers: a
    // malformed address, an over-long parameter, a route constraint that failed, and a request while closing (see
    // `closing`). Answered here, they carry the headers, the request's id and the envelope as every other answer does.
    return503OnClosing: false,
    frameworkErrors: answerFrameworkError,
    // And what Node's parser refuses (bytes it cannot parse, headers too large, a request not whole in time, its body
    // included): the envelope with the same headers, written on the connection as Fastify's own handler writes its JSON.
    clientErrorHandler: clientErrorHandler(headersSetBy(securityHeaders), (socket) => seenAnswers.get(socket)),
  }).withTypeProvider<ZodTypeProvider>();
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // On the raw answer, so the provider's own answers (which bypass Fastify's reply) carry it too.
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('x-request-id', request.id);
    seenAnswers.set(request.raw.socket, reply.raw);
    done();
  });
  // One memory budget for this process's answer caches (CACHE_MEMORY_MB), which the metrics report.
  const cacheBudget = createMemoryBudget(config.cacheMemoryBytes);
  const metrics = createMetrics(db.$client, () => [
    ...cacheBudget.usage(),
    rememberedDpop.tokens.usage(),
    rememberedDpop.headers.usage(),
    rememberedKeyImports.usage(),
    keyImportsSeenOnce.usage(),
  ]);
  app.decorate('metrics', metrics);
  recordRequests(app, metrics, options.embeddedIdentity ? providerMountPath(config) : null);
  app.setValidatorCompiler(validatorCompiler);
  // Success answers are checked against their contracts. Error answers are JSON text from the error handler and pass
  // no serializer; one that comes as an object anyway (Fastify's own, after a second error) still leaves as the
  // envelope rather than failing a schema it was never meant for.
  app.setSerializerCompiler((route) =>
    route.schema === errorEnvelopeSchema
      ? errorEnvelopeText
      : // The zod compiler's type names zod schemas; these are the same objects under Fastify's general type.
        serializerCompiler(route as Parameters<typeof serializerCompiler>[0]),
  );

  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error) => {
      if (!closing) return done(error as Error | undefined);
      // A request that came on a connection still open while the server closes: the load balancer's next try goes
      // to another process. Fastify has marked the connection to close after this answer. Answered here, not as an
      // error: it is no fault to log.
      sendFailure(request, reply, { status: 503, message: SERVER_CLOSING, retryAfter: CLOSING_RETRY_AFTER_SECONDS });
    }),
  );

  // Only JSON bodies: anything else answers 415 through the error handler.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // The web client sends Content-Type: application/json on every call, body-less DELETEs included (SPEC 7).
    if (body === '' && (request.method === 'DELETE' || request.method === 'GET')) return done(null, undefined);
    return parseJson(request, String(body), done);
  });

  registerErrorHandling(app);
  // Token and proof signatures, and a proof key's thumbprint, are checked on the event loop (decision 049).
  answerWebCryptoInPlace();
  let keys = options.keys;
  let algorithms: string[] | undefined;
  if (options.embeddedIdentity && !keys) {
    // The API trusts the embedded provider's own public keys directly: no HTTP round trip to itself.
    ({ keys, algorithms } = await providerKeySet(db, options.secrets));
  }
  const revocations = createRevocationCache({
    db,
    log: (message) => app.log.warn(message),
    onLearnt: (scope) => metrics.revocationsLearnt.inc({ scope }),
  });
  await revocations.start();
  app.addHook('onClose', () => revocations.stop());
  await app.register(authPlugin, {
    config: config.auth,
    revocations,
    onRevokedToken: () => metrics.revokedTokensRefused.inc(),
    dpop: { publicUrl: config.publicUrl, ledger: postgresProofLedger(db.$client) },
    ...(keys ? { keys } : {}),
    ...(algorithms ? { algorithms } : {}),
  });

  const mailer = options.deliverMail
    ? createMailer({ db, config: config.mail, secrets: options.secrets, log: app.log })
    : null;
  if (mailer) {
    mailer.start();
    app.addHook('onClose', () => mailer.stop());
  }
  const security = createSecurityService({
    db,
    config,
    secrets: options.secrets,
    kickMail: () => void mailer?.kick(),
  });
  // Second factors live with the embedded provider's accounts; another provider keeps its own.
  const factors = config.auth.embedded
    ? createFactorService({ db, secrets: options.secrets, security, limiter: createAttemptLimiter({ db }) })
    : null;
  const passkeys = config.auth.embedded ? createPasskeyService({ db, config, security }) : null;
  const emailChanges = config.auth.embedded
    ? createEmailChanges({
        db,
        config,
        accounts: createAccountService({ db }),
        limiter: createAttemptLimiter({ db }),
        security,
        secrets: options.secrets,
        factors,
      })
    : null;
  const deletion = createAccountDeletion({
    db,
    config,
    secrets: options.secrets,
    kickMail: () => void mailer?.kick(),
    factors,
  });

  const sweep = () => {
    void sweepAttempts(db).catch(() => undefined);
    void sweepSecurityEvents(db).catch(() => undefined);
    void sweepSecurityDetails(db).catch(() => undefined);
    void sweepSentMail(db).catch(() => undefined);
    void sweepTotpSteps(db).catch(() => undefined);
    void sweepRevocations(db, config.sessions.accessTokenTtl).catch(() => undefined);
    if (options.embeddedIdentity) {
      void sweepExpiredPayloads(db).catch(() => undefined);
      void sweepPasswordResets(db).catch(() => undefined);
      void sweepEmailChanges(db).catch(() => undefined);
    }
  };
  sweep();
  const sweeper = setInterval(sweep, SWEEP_INTERVAL_MS);
  sweeper.unref();
  // Used DPoP proofs pile up at the request rate: they go every minute, once they can no longer be accepted.
  const proofSweeper = setInterval(() => void sweepDpopProofs(db.$client).catch(() => undefined), 60_000);
  proofSweeper.unref();
  // Closed accounts whose grace period is over are purged once a day (and at start) by every process.
  const purge = () =>
    void deletion
      .purgeDue()
      .then((purged) => purged.length > 0 && app.log.info({ purged: purged.length }, 'closed accounts purged'))
      .catch((error: unknown) => app.log.error({ err: error }, 'closed accounts not purged'));
  purge();
  const purger = setInterval(purge, PURGE_INTERVAL_MS);
  purger.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    clearInterval(proofSweeper);
    clearInterval(purger);
  });
  if (options.embeddedIdentity)
    await registerEmbeddedProvider(app, {
      config,
      db,
      security,
      deletion,
      secrets: options.secrets,
      factors,
      passkeys,
      emailChanges,
    });

  await app.register(swagger, {
    openapi: {
      info: { title: 'UMS API', description: 'Member accounts and membership administration', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // For integrators: on unless production turns it off (API_DOCS), and under the app's own CSP rather than the looser
  // one Swagger UI would send. That CSP requires Trusted Types, and Swagger UI's React writes HTML its bundled
  // DOMPurify has sanitised: the docs page alone names that HTML trusted, in a script file that runs before it renders.
  if (config.apiDocs) {
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      uiConfig: { docExpansion: 'list' },
      theme: { js: [{ filename: 'trusted-types.js', content: DOCS_TRUSTED_TYPES }] },
    });
  }

  app.get('/api/health', {
    config: { policy: 'public' },
    schema: {
      tags: ['system'],
      summary: 'The process is up',
      response: { 200: z.object({ status: z.literal('ok') }) },
    },
    handler: async () => ({ status: 'ok' as const }),
  });
  const clientConfig: ClientConfig = {
    authority: config.auth.issuer,
    clientId: config.auth.clientId,
    scope: SCOPES.join(' '),
    redirectPath: '/auth/callback',
    silentRenewPath: '/auth/silent-renew',
    // Only our own provider (same origin, no frame refusal) signs a new tab in from a hidden frame.
    frameSignIn: config.auth.embedded,
    // Our provider binds tokens to the browser's key; Cognito has no DPoP.
    dpop: config.auth.embedded,
    logoutUrl: config.auth.logoutUrl,
    forgotPasswordUrl: config.auth.forgotPasswordUrl,
    emailChange: config.auth.embedded ? 'in-app' : config.auth.changeEmailUrl,
    deletionGraceDays: config.auth.embedded ? config.deletionGraceDays : null,
    groupsClaim: config.auth.groupsClaim,
    roleClaim: config.auth.roleClaim,
    adminGroup: config.auth.roleGroups.Admin,
    supportGroup: config.auth.roleGroups.Support,
    catalogGroup: config.auth.roleGroups.Catalog,
    apiBase: '/api',
    businessTimeZone: config.businessTimeZone,
    analyticsUrl: config.web.analyticsUrl,
    companionApps: config.web.companionApps,
    company: config.web.company,
  };
  app.get('/api/config', {
    config: { policy: 'public' },
    schema: {
      tags: ['system'],
      summary: "The web app's run-time configuration",
      response: { 200: clientConfigSchema },
    },
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return clientConfig;
    },
  });
  app.get('/api/ready', {
    config: { policy: 'public' },
    schema: {
      tags: ['system'],
      summary: 'The database is reachable',
      response: {
        200: z.object({ status: z.string(), database: z.string() }),
        503: z.object({ status: z.string(), database: z.string() }),
      },
    },
    handler: async (_request, reply) => {
      try {
        await db.execute(sql`select 1`);
        return { status: 'ready', database: 'up' };
      } catch {
        return reply.status(503).send({ status: 'not ready', database: 'unreachable' });
      }
    },
  });

  const lists = createLists(db.$client, cacheBudget);
  await app.register(catalogRoutes, { catalog: createCatalogService({ db, catalogFile: config.catalogFile }), lists });
  await app.register(membershipRoutes, { memberships: createMembershipService({ db }), lists });
  await app.register(discountPackageRoutes, { packages: createDiscountPackageService({ db }), lists });
  await app.register(overviewRoutes, { pool: db.$client, lists });
  await app.register(businessMetricsRoutes, {
    metrics: createBusinessMetrics({ db, timeZone: config.businessTimeZone, budget: cacheBudget }),
  });
  await app.register(passwordChangeRoutes, {
    passwords: createPasswordChangeService({ db, config, security, factors }),
  });
  await app.register(emailChangeRoutes, { changes: emailChanges });
  await app.register(securityRoutes, { security, lists, embedded: config.auth.embedded });
  await app.register(factorRoutes, { factors, passkeys, accounts: createAccountService({ db }) });
  await app.register(memberRoutes, { members: createMemberService({ db }), autologinUrl: config.autologinUrl, lists });
  const myData = createMyData({
    pool: db.$client,
    company: config.web.company.name,
    provider: config.auth.provider,
    sessionsOf: async (user) => (config.auth.embedded ? security.listSessions(user.subject, user.grantId) : []),
  });
  await app.register(selfServiceRoutes, {
    receipts: createReceipts({
      db,
      company: config.web.company.name,
      limiter: createAttemptLimiter({ db }),
    }),
    myData,
    deletion,
  });
  await app.register(memberDirectoryRoutes, {
    members: createMemberDirectory({
      db,
      myData,
      security,
      lists,
      roleGroups: config.auth.roleGroups,
      emailChanges,
    }),
    lists,
    embedded: config.auth.embedded,
    roleGroups: config.auth.roleGroups,
  });
  const audited = [membershipEntity, discountPackageEntity];
  if (config.auth.embedded) audited.push(memberGroupsEntity(config.auth.roleGroups, security.rolesChanged));
  await app.register(auditRoutes, { lists, audit: createAuditRevert({ db, entities: audited }) });

  if (options.publicRoot && existsSync(options.publicRoot)) {
    await app.register(fastifyStatic, { root: options.publicRoot, prefix: '/catalog-images/', decorateReply: false });
  }
  if (options.webRoot && existsSync(path.join(options.webRoot, 'index.html'))) {
    await registerWebApp(app, { webRoot: options.webRoot, clientConfig });
  }
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
