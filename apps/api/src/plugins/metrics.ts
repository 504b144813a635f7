import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import client from 'prom-client';
import type { CacheUsage } from '../lib/bounded-cache.js';

/** Request durations in seconds: the API answers in milliseconds, a sign-in's password check takes ~100 ms. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The process's metrics in Prometheus's text format: requests by route and status with their latency, sign-ins by
 * outcome, attempt-limit refusals, revocations learnt and revoked tokens refused, the connection pool, and Node's
 * own (event-loop lag, memory, CPU). One registry per app, so tests and several apps in one process stay apart.
 */
export function createMetrics(pool: pg.Pool, caches: () => CacheUsage[] = () => []) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const metrics = {
    registry,
    requests: new client.Counter({
      name: 'ums_http_requests_total',
      help: 'HTTP requests answered, by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    duration: new client.Histogram({
      name: 'ums_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    signIns: new client.Counter({
      name: 'ums_sign_ins_total',
      help: 'Sign-in form submissions of the embedded provider: success, failure (wrong email or password), refused (attempt limit)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    limitRefusals: new client.Counter({
      name: 'ums_attempt_limit_refusals_total',
      help: 'Attempts refused by an attempt limit before any password was checked, by action',
      labelNames: ['action'] as const,
      registers,
    }),
    revocationsLearnt: new client.Counter({
      name: 'ums_revocations_learnt_total',
      help: 'Revocation marks this process learnt of (account: all of an account’s tokens, grant: one session’s)',
      labelNames: ['scope'] as const,
      registers,
    }),
    revokedTokensRefused: new client.Counter({
      name: 'ums_revoked_tokens_refused_total',
      help: 'API calls refused because their token was revoked',
      registers,
    }),
  };
  new client.Gauge({
    name: 'ums_db_pool_connections',
    help: 'Database connections of this process: total, idle, and requests waiting for one',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  for (const [field, help] of [
    ['bytes', 'What each in-memory cache of this process keeps, in bytes (keys and entries counted)'],
    ['entries', 'The number of entries each in-memory cache of this process keeps'],
  ] as const) {
    new client.Gauge({
      name: `ums_cache_${field}`,
      help,
      labelNames: ['cache'] as const,
      registers,
      collect() {
        for (const usage of caches()) this.set({ cache: usage.name }, usage[field]);
      },
    });
  }
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

/** What the sign-in form's answer says about the attempt: the provider redirects (303) after a good one. */
const SIGN_IN_OUTCOMES: Record<number, 'success' | 'failure' | 'refused'> = {
  303: 'success',
  401: 'failure',
  429: 'refused',
};

/**
 * Counts every answer when it has been sent (the provider's own answers included, which bypass Fastify's reply).
 * Routes are Fastify's patterns, so ids never make new series; addresses that match no route count as one.
 */
export function recordRequests(app: FastifyInstance, metrics: Metrics, providerMount: string | null) {
  app.addHook('onRequest', (request, reply, done) => {
    const started = process.hrtime.bigint();
    // Read now: the provider's mount rewrites the address before handing the request over.
    const provider = providerMount !== null && request.url.startsWith(`${providerMount}/`);
    reply.raw.once('finish', () => {
      const route = request.routeOptions.url ?? (provider ? `${providerMount}/*` : 'unmatched');
      const status = reply.raw.statusCode;
      const labels = { method: request.method, route, status: String(status) };
      metrics.requests.inc(labels);
      metrics.duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      if (request.method === 'POST' && route.endsWith('/interaction/:uid/login')) {
        const outcome = SIGN_IN_OUTCOMES[status];
        if (outcome) metrics.signIns.inc({ outcome });
        if (outcome === 'refused') metrics.limitRefusals.inc({ action: 'sign-in' });
      }
      if (route === '/api/PasswordReset' && status === 429) metrics.limitRefusals.inc({ action: 'password-change' });
    });
    done();
  });
}

/** Serves the metrics on their own port (METRICS_PORT), never on the public one. */
export async function serveMetrics(metrics: Metrics, port: number, host: string): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
