// `npm run bench`: load on the production build with realistic data, plus front-end weight and Lighthouse.
// Figures go to bench/results/latest.md and latest.json. Not part of `npm test`.
import { execSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { createDatabase } from '../apps/api/src/db/client.js';
import { runningEmbeddedUrl, runningPostmaster } from '../apps/api/src/db/embedded.js';
import { createAccountService } from '../apps/api/src/identity/accounts.service.js';
import { entityStripe } from '../apps/api/src/db/write-stripes.js';
import { DEMO_MEMBER_SUBJECT } from '../apps/api/src/seed/demo-data.js';
import { freePort } from '../apps/api/src/net.js';
import { CACHE_MEMORY_MB } from '../apps/api/src/config/env.js';
import {
  growBusinessHistory,
  growData,
  growDirectoryAndAudit,
  LARGE_GROWTH,
  REALISTIC,
} from '../apps/api/src/seed/grow-data.js';
import { membershipInputSchema, userDetailsInputSchema, type Membership } from '@ums/contracts';
import { addDays, todayIn } from '@ums/contracts/metrics';
import { exited, prepareServer } from '@ums/testkit/server-process';
import { browser, dpopHeaders, refresh, signIn, type SignedIn } from '@ums/testkit/oidc-browser';
import { ARGON2 } from '../apps/api/src/identity/password-hash.js';
import {
  benchCpuSeconds,
  cpuSeconds,
  footprint,
  handOverUs,
  KEYCLOAK,
  passwordCheckMs,
  signInBurst,
  startUpMs,
  type BurstResult,
  type CpuSeconds,
  type Footprint,
} from './identity.js';
import { lighthouseAudits, type LighthouseResult } from './lighthouse.js';
import { median, percentile } from './median.js';
import { webBundles } from '../scripts/lib/web-bundles.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const DURATION = Number(process.env['BENCH_DURATION'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
/**
 * Each call is loaded unmeasured for this long first: its code compiled by V8 and its statements prepared on the
 * pool's connections, as on a server that has been up for a while; otherwise whichever call comes first in the run
 * (the reference) pays for the warm-up and every ratio moves with the order of the calls.
 */
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? 2);
/**
 * BENCH_SERVER_NODE_ARGS: Node's or V8's options for the server process alone, space-separated (a trial of one, such
 * as `--max-semi-space-size=32`). The report names them, so a trial's figures are never taken for the default's.
 */
const SERVER_NODE_ARGS = process.env['BENCH_SERVER_NODE_ARGS']?.split(/\s+/).filter(Boolean) ?? [];
const ADMIN = { email: 'admin@example.com', password: 'Bench-Admin-2026!' };
const MEMBER = { email: 'member@example.com', password: 'Bench-Member-2026!' };
const log = (message: string) => console.log(`[bench] ${message}`);
/** The authenticator app's code for now (RFC 6238: 6 digits, 30 s), as the member's phone shows it. */
const totpCode = (secret: string, aheadMs = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + aheadMs });
const REVOCATIONS = 10_000;
/**
 * The n-th request's path of a row that walks `range` values so that each comes once before any twice: `at(k)` for k
 * stepped by the first odd number from 10,007 that shares no factor with the range.
 */
function stepping(range: number, at: (k: number) => string): (n: number) => string {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let step = 10_007;
  while (gcd(step, range) !== 1) step += 2;
  return (n) => at((n * step) % range);
}
/**
 * Issue 39, item 5: ten times issue 14's member data, which the pages and searches are measured on; the audit trail's
 * million entries are about 100,000 memberships and packages (10 changes each), enough different names for its row of
 * a new search every request.
 */
const TEN_TIMES = { accounts: 1_000_000, memberOrders: 100_000, auditEntries: 1_000_000, auditedEntities: 100_000 };
/** The identity rows (sign-ins, refreshes) are measured this long, after this long of the same flow unmeasured. */
const IDENTITY_SECONDS = Number(process.env['BENCH_IDENTITY_DURATION'] ?? 30);
const IDENTITY_WARMUP = Number(process.env['BENCH_IDENTITY_WARMUP'] ?? 5);
/** The identity rows' names in the API table, which the identity table finds them by. */
const IDENTITY_ROWS = {
  password: 'sign-in: password (whole flow, sign-ins/s)',
  withCode: 'sign-in: password + authenticator code (whole flow, sign-ins/s)',
  refresh: 'refresh-token grant with rotation and DPoP (grants/s)',
};
/** Sign-ins started at the same moment in the burst row. */
const BURST = 200;

/**
 * A scripted browser coming from the account's own address in 10.0.0.0/8 (the load balancer passes it on in
 * X-Forwarded-For): the sign-in limits per address then see one member each, as they would in use.
 */
function fromOwnAddress(email: string) {
  let hash = 0x811c9dc5;
  for (const char of email) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return { go: browser({ 'x-forwarded-for': `10.${(hash >>> 16) & 255}.${(hash >>> 8) & 255}.${hash & 255}` }) };
}

/** `work(i)` for i from 0 to count - 1, at most `width` at a time. */
async function inTurns(count: number, width: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await work(next++);
    }),
  );
}
/** BENCH_ONLY=api or web measures the API or the pages alone and prints it, writing no report (a quick look). */
const API_ONLY = process.env['BENCH_ONLY'] === 'api';
const WEB_ONLY = process.env['BENCH_ONLY'] === 'web';
/**
 * BENCH_CALLS=<regular expression> loads only the calls whose names match it (the references always run) and
 * prints them as BENCH_ONLY=api does: a quick look at a few calls while working on them.
 */
const CALLS = process.env['BENCH_CALLS'] ? new RegExp(process.env['BENCH_CALLS']) : null;
/** BENCH_LIGHTHOUSE=<regular expression> audits only the Lighthouse rows whose names match it. */
const LIGHTHOUSE = process.env['BENCH_LIGHTHOUSE'] ? new RegExp(process.env['BENCH_LIGHTHOUSE']) : null;
const PRINT_ONLY = API_ONLY || CALLS !== null;

interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  total: number;
  /** The reference route's requests/s in the slices that alternated with this call's (the ratio's denominator). */
  referenceRequestsPerSecond?: number;
  ratioToReference?: number;
  /** Not loaded: BENCH_CALLS left it out. */
  skipped?: boolean;
  /**
   * The identity rows: CPU the server process and PostgreSQL spent per flow over the measured time, and PostgreSQL
   * transactions per flow (pg_stat_database).
   */
  perFlow?: { serverCpuMs: number; postgresCpuMs: number; browsersCpuMs: number; transactions: number };
  /** The pages and searches: their first answer after the data grew, before anything was kept for it, in ms. */
  firstAnswerMs?: number;
}

/** What the identity rows read around their measured time: the CPU used so far and PostgreSQL's transactions. */
interface Meters {
  cpu: () => Promise<CpuSeconds>;
  transactions: () => Promise<number>;
}

/**
 * A call's measured time is cut into this many slices, each run right after a slice of the reference route of the
 * same length: whatever else slows the machine down for a while (a neighbour, a PostgreSQL checkpoint) then weighs
 * on both sides of the ratio alike, instead of on whichever was measured at that moment.
 */
const SLICES = 5;

/** One load; a call that answers anything but 2xx stops the run: its speed would be that of the error. */
/** A call to measure; `prepare` readies what a run of so many seconds uses (its DPoP proofs) before it starts. */
type Call = autocannon.Options & {
  prepare?: (seconds: number) => void;
  /** `count` proofs signed for the call, and its authorization, for a load run elsewhere (a worker thread). */
  signed?: (count: number) => { authorization: string; proofs: string[] };
};

async function loadOnce({ prepare, ...options }: Call, seconds: number) {
  prepare?.(seconds);
  const result = await autocannon({ duration: seconds, connections: CONNECTIONS, ...options });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${String(options.method ?? 'GET')} ${String(options.url)}: ${result.non2xx} answers were not 2xx and ` +
        `${result.errors} failed (${JSON.stringify(result.statusCodeStats)}), out of ${result.requests.total}`,
    );
  }
  return result;
}

/** The call alone, for DURATION seconds after its warm-up. */
async function load(name: string, options: Call): Promise<LoadResult> {
  log(`${name}: ${DURATION} s, ${CONNECTIONS} connections, after ${WARMUP} s of warm-up`);
  if (WARMUP > 0) await loadOnce(options, WARMUP);
  const result = await loadOnce(options, DURATION);
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

/**
 * The call against the reference: after the call's warm-up, SLICES rounds of the reference then the call, each for
 * DURATION / SLICES seconds. Requests/s and the ratio come from the totals; p50 is the slices' median, p99 their
 * highest (so a slow slice is not averaged away).
 */
async function loadBeside(reference: Call, name: string, options: Call): Promise<LoadResult> {
  if (CALLS && !CALLS.test(name)) {
    return { name, requestsPerSecond: 0, p50Ms: 0, p99Ms: 0, errors: 0, non2xx: 0, total: 0, skipped: true };
  }
  log(`${name}: ${DURATION} s beside the reference's ${DURATION} s in ${SLICES} slices, after ${WARMUP} s of warm-up`);
  if (WARMUP > 0) await loadOnce(options, WARMUP);
  const seconds = DURATION / SLICES;
  const references: autocannon.Result[] = [];
  const calls: autocannon.Result[] = [];
  for (let slice = 0; slice < SLICES; slice++) {
    references.push(await loadOnce(reference, seconds));
    calls.push(await loadOnce(options, seconds));
  }
  const sum = (results: autocannon.Result[], value: (result: autocannon.Result) => number) =>
    results.reduce((total, result) => total + value(result), 0);
  const callRate = sum(calls, (result) => result.requests.total) / DURATION;
  const referenceRate = sum(references, (result) => result.requests.total) / DURATION;
  return {
    name,
    requestsPerSecond: Math.round(callRate),
    p50Ms: median(calls.map((result) => result.latency.p50)),
    p99Ms: Math.max(...calls.map((result) => result.latency.p99)),
    errors: sum(calls, (result) => result.errors + result.timeouts),
    non2xx: sum(calls, (result) => result.non2xx),
    total: sum(calls, (result) => result.requests.total),
    referenceRequestsPerSecond: Math.round(referenceRate),
    ratioToReference: Number((callRate / referenceRate).toFixed(3)),
  };
}

/** One call's figures as a line of the log. */
const described = (r: LoadResult) =>
  `${r.name}: ${r.requestsPerSecond}/s, p99 ${r.p99Ms} ms, ratio ${r.ratioToReference ?? 1}` +
  (r.referenceRequestsPerSecond ? ` (reference beside it ${r.referenceRequestsPerSecond}/s)` : '') +
  (r.firstAnswerMs === undefined ? '' : `, first answer ${r.firstAnswerMs} ms`) +
  (r.perFlow
    ? `; each: server CPU ${r.perFlow.serverCpuMs} ms, PostgreSQL CPU ${r.perFlow.postgresCpuMs} ms, browsers' CPU ${r.perFlow.browsersCpuMs} ms, ${r.perFlow.transactions} transactions`
    : '');

/**
 * A flow of several requests made by scripted browsers, CONNECTIONS at a time: whole sign-ins (authorize, the sign-in
 * page, the password, a second step when the account has one, back to the app, the token request with its DPoP proof)
 * or refresh-token grants. DURATION seconds of the reference first, for the ratio; then IDENTITY_WARMUP seconds of
 * the flow unmeasured and IDENTITY_SECONDS measured, or until `once` has nothing left to do. Flows ended within the
 * measured time per second of it, and the time of one from its first request to the tokens.
 */
async function flowLoad(
  reference: Call,
  meters: Meters,
  name: string,
  once: () => Promise<boolean>,
): Promise<LoadResult> {
  if (CALLS && !CALLS.test(name)) {
    return { name, requestsPerSecond: 0, p50Ms: 0, p99Ms: 0, errors: 0, non2xx: 0, total: 0, skipped: true };
  }
  log(
    `${name}: ${IDENTITY_SECONDS} s of ${CONNECTIONS} scripted browsers after ${IDENTITY_WARMUP} s unmeasured, ` +
      `after ${DURATION} s of the reference`,
  );
  const referenceRun = await loadOnce(reference, DURATION);
  const took: number[] = [];
  let failure: Error | undefined;
  let exhausted = false;
  const warm = performance.now() + IDENTITY_WARMUP * 1000;
  const deadline = warm + IDENTITY_SECONDS * 1000;
  let exhaustedAt = deadline;
  /** CPU so far: the server's and PostgreSQL's, and this process's (the scripted browsers'), in seconds. */
  type Reading = { cpu: CpuSeconds; browsers: number; transactions: number };
  // A reading that fails is kept for after the load (a rejected reading nobody awaits yet would end the process).
  let meterFailure: Error | undefined;
  const read = async (): Promise<Reading | null> => {
    try {
      return { cpu: await meters.cpu(), browsers: benchCpuSeconds(), transactions: await meters.transactions() };
    } catch (error) {
      meterFailure ??= error as Error;
      return null;
    }
  };
  const atWarm = new Promise<Reading | null>((resolve) =>
    setTimeout(() => resolve(read()), Math.max(0, warm - performance.now())),
  );
  const driver = async () => {
    while (!exhausted && performance.now() < deadline) {
      const begun = performance.now();
      try {
        if (!(await once())) {
          exhausted = true;
          exhaustedAt = Math.min(exhaustedAt, performance.now());
          continue;
        }
        const ended = performance.now();
        // Counted when it ends within the measured time: flows still under way at its end are not.
        if (ended >= warm && ended <= deadline) took.push(ended - begun);
      } catch (error) {
        // As the other rows: a failure stops the run rather than hide in a rate.
        exhausted = true;
        failure ??= error as Error;
      }
    }
  };
  let atEnd: Promise<Reading | null> | null = null;
  const endReading = () => (atEnd ??= read());
  const atDeadline = setTimeout(endReading, Math.max(0, deadline - performance.now()));
  await Promise.all(Array.from({ length: CONNECTIONS }, driver));
  clearTimeout(atDeadline);
  const [first, last] = [await atWarm, await endReading()];
  if (failure) throw new Error(`${name}: one failed: ${failure.message}`);
  if (meterFailure) throw new Error(`${name}: reading the CPU and transactions failed: ${meterFailure.message}`);
  if (exhaustedAt < warm) throw new Error(`${name}: too few accounts to measure after the warm-up`);
  const seconds = (exhaustedAt - warm) / 1000;
  if (exhaustedAt < deadline) log(`${name}: the accounts ran out after ${seconds.toFixed(1)} s of the measured time`);
  took.sort((a, b) => a - b);
  const rate = took.length / seconds;
  const referenceRate = referenceRun.requests.total / DURATION;
  const result: LoadResult = {
    name,
    requestsPerSecond: Number(rate.toFixed(1)),
    p50Ms: percentile(took, 0.5),
    p99Ms: percentile(took, 0.99),
    errors: 0,
    non2xx: 0,
    total: took.length,
    referenceRequestsPerSecond: Math.round(referenceRate),
    ratioToReference: Number((rate / referenceRate).toFixed(4)),
    ...(first && last && took.length > 0
      ? {
          perFlow: {
            serverCpuMs: Number((((last.cpu.server - first.cpu.server) * 1000) / took.length).toFixed(1)),
            postgresCpuMs: Number((((last.cpu.postgres - first.cpu.postgres) * 1000) / took.length).toFixed(1)),
            browsersCpuMs: Number((((last.browsers - first.browsers) * 1000) / took.length).toFixed(1)),
            transactions: Number(((last.transactions - first.transactions) / took.length).toFixed(1)),
          },
        }
      : {}),
  };
  // As soon as it is measured: a look at one identity row need not wait for the rest of the run.
  log(described(result));
  return result;
}

async function main() {
  if (!process.env['BENCH_SKIP_BUILD']) execSync('npm run build', { cwd: root, stdio: 'inherit' });
  // The server's own metrics say where its memory is (V8's heap, buffers, each cache's answers).
  const metricsPort = await freePort();
  const serverMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const prepared = await prepareServer({
    entry: 'build',
    // The whole API part takes longer than the default 10-minute access token: the tokens minted at its start must
    // last until its end (an expired one would measure 401 answers).
    env: {
      DEMO_ADMIN_PASSWORD: ADMIN.password,
      DEMO_MEMBER_PASSWORD: MEMBER.password,
      ACCESS_TOKEN_TTL: '3600',
      // Behind a load balancer, as in production: the scripted browsers of the identity rows each come from an
      // address of their own (fromOwnAddress), as members do, instead of sharing one address's sign-in limits.
      TRUST_PROXY: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
    },
    output: 'inherit',
    nodeArgs: [
      ...(process.env['BENCH_CPU_PROFILE']
        ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env['BENCH_CPU_PROFILE'])}`]
        : []),
      ...SERVER_NODE_ARGS,
    ],
  });
  const { base, dataDir } = prepared;
  let server = prepared.start().child;
  try {
    await prepared.waitReady();
    const postmaster = async () => (await runningPostmaster(prepared.pgData))!.pid;
    // Idle after its start: the demo data in, nothing asked yet but readiness, its start-up work (migrations,
    // keys, the provider) settled.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const idleAfterStart = await footprint(server.pid!, await postmaster(), serverMetricsUrl);
    const passwordCheck = await passwordCheckMs();
    log(`one argon2id password check alone: ${passwordCheck} ms`);
    const handOver = await handOverUs();
    log(`one hand-over between two processes and back: ${handOver} µs`);
    log(
      `idle after start: server ${idleAfterStart.serverRssMb} MB resident (${JSON.stringify(idleAfterStart.parts)}), ` +
        `PostgreSQL ${idleAfterStart.postgresPssMb} MB`,
    );

    log('growing the demo data to realistic size');
    const pool = new pg.Pool({ connectionString: (await runningEmbeddedUrl(dataDir))! });
    const identityMeters: Meters = {
      cpu: async () => cpuSeconds(server.pid!, await postmaster()),
      transactions: async () =>
        Number(
          (
            await pool.query<{ n: string }>(
              'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
            )
          ).rows[0]!.n,
        ),
    };
    await growData(pool, {
      ...REALISTIC,
      member: { subject: DEMO_MEMBER_SUBJECT, orders: REALISTIC.orders, subscriptions: REALISTIC.subscriptions },
    });
    const dataCounts = async () =>
      (
        await pool.query(
          `select (select count(*) from products)::int as products,
          (select count(*) from memberships)::int as memberships,
          (select count(*) from promotional_products)::int as promotional,
          (select count(*) from orders where subject = $1)::int as orders,
          (select count(*) from subscriptions where subject = $1 and cancelled_at is null)::int as subscriptions,
          (select count(*) from accounts)::int as accounts,
          (select count(*) from audit_entries)::int as "auditEntries",
          (select count(*) from orders)::int as "allOrders",
          (select count(*) from security_events)::int as "securityEvents"`,
          [DEMO_MEMBER_SUBJECT],
        )
      ).rows[0] as Record<string, number>;
    const counts = await dataCounts();
    // Revocations as a busy day leaves them (sign-outs, password changes): every token check looks them up.
    await pool.query(
      `insert into token_revocations (key, not_before, updated_at)
       select 'grant:bench-' || g, now(), now() from generate_series(1, $1::int) as g on conflict do nothing`,
      [REVOCATIONS],
    );
    await pool.query(`select pg_notify('ums_token_revocations', key) from token_revocations`);
    counts['revocations'] = REVOCATIONS;
    if (WEB_ONLY) {
      await pool.end();
      for (const result of await lighthouseAudits(base, { member: MEMBER, admin: ADMIN }, LIGHTHOUSE)) {
        log(JSON.stringify(result));
      }
      return;
    }

    // Every call as the web app makes it: the token bound to the browser's key (the embedded provider gives its web
    // client no other kind), with a fresh proof per request.
    const admin = await signIn(base, ADMIN.email, ADMIN.password);
    const member = await signIn(base, MEMBER.email, MEMBER.password);
    type Who = typeof admin;
    const json = { 'content-type': 'application/json' };
    const once = async (who: Who, url: string) =>
      (await fetch(`${base}${url}`, { headers: dpopHeaders(who.access_token, 'GET', `${base}${url}`) })).json();
    const packages = (await once(admin, '/api/discountPackage')) as {
      data: { discountPackageId: number; products: { productId: number }[] }[];
    };
    const target = packages.data.find((p) => p.products.length > 0)!;

    /**
     * A call with a proof per request. A browser signs its proofs on its own processor; here each run's are signed
     * before it starts (as many as it could use), so the load generator does not take the server's cores to make them.
     */
    /** A call as the web app makes it; a body may be each connection's own (`connection` is kept per connection). */
    const proven = (
      who: Who,
      url: string,
      init: {
        method?: 'GET' | 'PUT' | 'POST';
        body?: string | ((connection: Record<string, unknown>) => string);
        /** Each request's own address (the same path, another query), from a count of the requests made. */
        path?: (n: number) => string;
        /** Called with the connection's state once its answer is in (the state is new for each request). */
        answered?: (connection: Record<string, unknown>) => void;
        /** Called before each run of the call (the warm-up, each slice). */
        reset?: () => void;
      } = {},
    ): Call => {
      const method = init.method ?? 'GET';
      const address = `${base}${url.split('?')[0]}`;
      const sign = () => who.dpop.proof(method, address, who.access_token);
      let ready: string[] = [];
      let made = 0;
      return {
        url: `${base}${url}`,
        prepare: (seconds) => {
          init.reset?.();
          ready = Array.from({ length: 6000 * seconds }, sign);
        },
        signed: (count) => ({ authorization: `DPoP ${who.access_token}`, proofs: Array.from({ length: count }, sign) }),
        requests: [
          {
            method,
            path: url,
            ...(typeof init.body === 'string' ? { body: init.body } : {}),
            setupRequest: (request, connection) => ({
              ...request,
              ...(init.path ? { path: init.path(made++) } : {}),
              ...(typeof init.body === 'function' ? { body: init.body(connection as Record<string, unknown>) } : {}),
              headers: {
                ...(init.body === undefined ? {} : json),
                authorization: `DPoP ${who.access_token}`,
                dpop: ready.pop() ?? sign(),
              },
            }),
            ...(init.answered
              ? {
                  onResponse: (_status: number, _body: string, connection: unknown) =>
                    init.answered!(connection as Record<string, unknown>),
                }
              : {}),
          },
        ],
      };
    };

    type Round = Record<string, unknown>;
    /** One request of a round: its address and body from what the steps before it kept in `round`. */
    interface Step {
      method: 'POST' | 'PUT' | 'DELETE';
      path: (round: Round) => string;
      body?: (round: Round) => string;
      /** Keeps what a later step needs from the answer (a 2xx answer's JSON). */
      then?: (answer: unknown, round: Round) => void;
    }
    /**
     * Changes made and taken back, as an administrator adds something and removes it: each connection runs the steps
     * in order, again and again, and `round` carries what a step needs from the one before (the id a create
     * answered). Each proof is signed as its request is made: an address that holds such an id is known only then.
     */
    const rounds = (who: Who, steps: Step[]): Call => ({
      url: base,
      requests: steps.map((step) => ({
        method: step.method,
        setupRequest: (request, round) => {
          const address = step.path(round as Round);
          return {
            ...request,
            method: step.method,
            path: address,
            ...(step.body ? { body: step.body(round as Round) } : {}),
            headers: {
              ...(step.body ? json : {}),
              ...dpopHeaders(who.access_token, step.method, `${base}${address}`),
            },
          };
        },
        onResponse: (status: number, body: string, round: unknown) => {
          if (status >= 200 && status < 300) step.then?.(body ? JSON.parse(body) : null, round as Round);
        },
      })),
    });
    /**
     * Items handed to one round at a time and given back when it ends. A round the run's end cut off keeps its item:
     * whatever that round left half done is never met again.
     */
    const handOut = <T>(items: T[]) => {
      const free = [...items];
      return {
        take: (round: Round) => {
          const item = free.shift();
          if (item === undefined) throw new Error('every item is taken: more connections than items');
          round['item'] = item;
          return item;
        },
        held: (round: Round) => round['item'] as T,
        give: (round: Round) => free.push(round['item'] as T),
      };
    };

    const referenceCall = proven(member, '/api/test/auth');
    const reference = await load(
      'reference: token and proof check + constant JSON (GET /api/test/auth)',
      referenceCall,
    );
    const beside = (name: string, options: Call) => loadBeside(referenceCall, name, options);
    const get = (name: string, url: string, who: Who) => beside(name, proven(who, url));
    /**
     * The overview's 12-month series: its first answer (which builds the rollups from the tables) and answers of
     * ranges no process keeps yet (read from the rollups), in ms.
     */
    let metricsColdMs: { first: number; uncached: number[] } | null = null;
    /** The grow step of the pages' data (issue 39, item 5): inserts, then VACUUM ANALYZE, in seconds. */
    let growSeconds: number | null = null;
    const endpoints = [
      await get('GET /api/membership (whole list)', '/api/membership', admin),
      await get('GET /api/PaymentHistory (whole list)', '/api/PaymentHistory', member),
      await get('GET /api/userdetails/', '/api/userdetails/', member),
      await get('GET /api/UserSubscriptions', '/api/UserSubscriptions', member),
    ];

    // The identity side (issues 34 and 39): whole sign-ins with a password, then with an authenticator code, then
    // refresh-token grants, each for IDENTITY_SECONDS after IDENTITY_WARMUP unmeasured, then a burst of sign-ins at
    // once. Every sign-in is another account's: sign-ins of one account at once are held to its limit of guesses
    // (reserved before the password is checked), and the provider takes each authenticator code once per account.
    // The accounts with a code are enrolled first through the Security calls, as a member would.
    const flowSeconds = IDENTITY_SECONDS + IDENTITY_WARMUP;
    // Enough for the rates measured here with room to spare (49 and 36 a second at the last run): a row whose accounts
    // run out before its time is up says so.
    const PASSWORD_ACCOUNTS = 80 * flowSeconds;
    const CODE_ACCOUNTS = 60 * flowSeconds;
    const SIGN_IN_PASSWORD = 'Bench-Sign-In-2026!';
    const withPassword: string[] = [];
    const withCode: { email: string; secret: string }[] = [];
    const identity = !CALLS || Object.values(IDENTITY_ROWS).some((row) => CALLS.test(row));
    if (identity) {
      log(`creating ${PASSWORD_ACCOUNTS} accounts, and ${CODE_ACCOUNTS} more with an authenticator app`);
      const { db: owner, pool: ownerPool } = createDatabase((await runningEmbeddedUrl(dataDir))!);
      const accounts = createAccountService({ db: owner });
      await inTurns(PASSWORD_ACCOUNTS, CONNECTIONS, async (i) => {
        const email = `bench-password-${i}@bench.example`;
        await accounts.add({ email, password: SIGN_IN_PASSWORD });
        withPassword.push(email);
      });
      await inTurns(CODE_ACCOUNTS, CONNECTIONS, async (i) => {
        const email = `bench-totp-${i}@bench.example`;
        await accounts.add({ email, password: SIGN_IN_PASSWORD });
        const session = await signIn(base, email, SIGN_IN_PASSWORD, fromOwnAddress(email));
        const call = async (url: string, body: unknown) => {
          const response = await fetch(`${base}${url}`, {
            method: 'POST',
            headers: { ...dpopHeaders(session.access_token, 'POST', `${base}${url}`), ...json },
            body: JSON.stringify(body),
          });
          if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
          return ((await response.json()) as { data: unknown[] }).data[0];
        };
        const { secret } = (await call('/api/security/totp/setup', {})) as { secret: string };
        await call('/api/security/totp', { code: totpCode(secret) });
        withCode.push({ email, secret });
      });
      await ownerPool.end();
    }
    const passwordAccounts = [...withPassword];
    endpoints.push(
      await flowLoad(referenceCall, identityMeters, IDENTITY_ROWS.password, async () => {
        const email = withPassword.shift();
        if (!email) return false;
        await signIn(base, email, SIGN_IN_PASSWORD, fromOwnAddress(email));
        return true;
      }),
      await flowLoad(referenceCall, identityMeters, IDENTITY_ROWS.withCode, async () => {
        const account = withCode.shift();
        if (!account) return false;
        // The next step's code (accepted one step either side): enrolment spent the code of its own step.
        const code = totpCode(account.secret, 30_000);
        await signIn(base, account.email, SIGN_IN_PASSWORD, {
          ...fromOwnAddress(account.email),
          secondFactor: { code },
        });
        return true;
      }),
    );
    // Refresh-token grants: CONNECTIONS browsers, each refreshing its own session again and again as the web app does
    // before its access token expires, each grant with a proof of the session's key and rotating its refresh token.
    let chains: SignedIn[] = [];
    if (identity) {
      chains = await Promise.all(
        passwordAccounts
          .slice(0, CONNECTIONS)
          .map((email) => signIn(base, email, SIGN_IN_PASSWORD, fromOwnAddress(email))),
      );
    }
    endpoints.push(
      await flowLoad(referenceCall, identityMeters, IDENTITY_ROWS.refresh, async () => {
        const session = chains.shift()!;
        try {
          const { status, body } = await refresh(base, session.refresh_token);
          if (status !== 200 || !body.refresh_token || body.refresh_token === session.refresh_token) {
            throw new Error(`the refresh answered ${status} ${JSON.stringify(body)}`);
          }
          session.refresh_token = body.refresh_token;
        } finally {
          chains.push(session);
        }
        return true;
      }),
    );
    // BURST sign-ins started at the same moment, while the reference route is loaded as usual beside them.
    let burst: BurstResult | null = null;
    if (identity && (!CALLS || CALLS.test(IDENTITY_ROWS.password))) {
      log(`a burst of ${Math.min(BURST, passwordAccounts.length)} sign-ins at once, beside the reference`);
      burst = await signInBurst(
        // Enough proofs for the reference at its own pace for 30 s; the burst takes a few.
        { url: String(referenceCall.url), connections: CONNECTIONS, ...referenceCall.signed!(6000 * 30) },
        passwordAccounts
          .slice(0, BURST)
          .map((email) => () => signIn(base, email, SIGN_IN_PASSWORD, fromOwnAddress(email))),
        { server: server.pid!, postmaster },
      );
      log(`burst: ${JSON.stringify(burst)}`);
    }

    // Issue 14's catalog (5,000 products, 2,000 memberships x 20), and issue 39's ten times the earlier member data
    // (item 5): 100,000 orders for the demo member, 1,000,000 accounts and 1,000,000 audit entries.
    log(
      `growing the data: 5,000 products, 2,000 memberships x 20, ${TEN_TIMES.memberOrders} orders for the demo member`,
    );
    const growStarted = performance.now();
    await growData(pool, {
      ...LARGE_GROWTH,
      member: { subject: DEMO_MEMBER_SUBJECT, orders: TEN_TIMES.memberOrders - REALISTIC.orders, subscriptions: 0 },
    });
    log(`growing the member directory and the audit trail to ${TEN_TIMES.accounts} entries each`);
    await growDirectoryAndAudit(pool, {
      accounts: TEN_TIMES.accounts,
      auditEntries: TEN_TIMES.auditEntries,
      entities: TEN_TIMES.auditedEntities,
      domain: 'bench.example',
    });
    log("growing the overview's history: 1,000,000 orders over a year, 1,000,000 security events over 89 days");
    await growBusinessHistory(pool, { orders: 1_000_000, securityEvents: 1_000_000, domain: 'bench.example' });
    // What autovacuum does after a bulk load: statistics, and the trigram indexes' pending entries merged.
    await pool.query('vacuum analyze');
    growSeconds = Math.round((performance.now() - growStarted) / 100) / 10;
    log(`grown, analysed and vacuumed in ${growSeconds} s`);
    const large = await dataCounts();
    // Measured once PostgreSQL's own background work after the load is over, as a system at rest would be.
    for (let waited = 0; waited < 60; waited++) {
      const { rows } = await pool.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker'`,
      );
      if (rows[0]!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    // The demo member's order numbers, which the searches by order number ask for (the other members' orders, grown
    // after them, have the numbers above).
    const memberOrderNumbers = (
      await pool.query<{ first: number; last: number }>(
        'select min(order_id)::int as first, max(order_id)::int as last from orders where subject = $1',
        [DEMO_MEMBER_SUBJECT],
      )
    ).rows[0]!;
    await pool.end();
    const firstMembership = (await once(admin, '/api/membership?limit=1&sort=membershipId')) as {
      data: { membershipId: number }[];
    };
    const membershipId = firstMembership.data[0]!.membershipId;
    const pages = [
      ['/api/membership', 'membership 19', admin],
      ['/api/discountPackage', 'package 1', admin],
      ['/api/product', 'panel 12', admin],
      ['/api/promotionalProduct', 'membership 19', admin],
      [`/api/promotionalProduct/${membershipId}`, 'panel 1', admin],
      ['/api/PaymentHistory', 'panel 1234', member],
      ['/api/UserSubscriptions', 'panel', member],
    ] as const;
    const timed = async (url: string, who: Who = admin) => {
      const started = performance.now();
      await once(who, url);
      return Math.round(performance.now() - started);
    };
    /**
     * A page or search as loaded, and beside it its first answer after the grow: nothing is kept in memory for it
     * yet, so that one is PostgreSQL's query on the grown tables.
     */
    const page = async (name: string, url: string, who: Who) => {
      if (CALLS && !CALLS.test(name)) return get(name, url, who);
      const firstAnswerMs = await timed(url, who);
      return { ...(await get(name, url, who)), firstAnswerMs };
    };
    const pageResults: LoadResult[] = [];
    for (const [url, q, who] of pages) {
      const shown = url.replace(/\/\d+$/, '/{membershipId}');
      pageResults.push(await page(`GET ${shown}?limit=25`, `${url}?limit=25`, who));
      pageResults.push(await page(`GET ${shown}?limit=25&q=${q}`, `${url}?limit=25&q=${encodeURIComponent(q)}`, who));
    }
    pageResults.push(await page('GET /api/admin/overview', '/api/admin/overview', admin));
    for (const [name, url] of [
      ['GET /api/admin/members?limit=25 (1,000,000 accounts)', '/api/admin/members?limit=25'],
      ['GET /api/admin/members?limit=25&q=number 1234', '/api/admin/members?limit=25&q=number%201234'],
      ['GET /api/admin/audit?limit=25 (1,000,000 entries)', '/api/admin/audit?limit=25'],
      [
        'GET /api/admin/audit?limit=25&entity=discount-package&entityId=42',
        '/api/admin/audit?limit=25&entity=discount-package&entityId=42',
      ],
      ['GET /api/admin/audit?limit=25&q=entity 42', '/api/admin/audit?limit=25&q=entity%2042'],
    ] as const) {
      pageResults.push(await page(name, url, admin));
    }
    // The same pages asked with a new search every request, as people typing different names or numbers do: none is
    // asked twice in a row's run, so each is PostgreSQL's query on the grown tables (the rows above reuse answers kept
    // per data version, as a list opened again does). Each step shares no factor with its range, so the searches
    // differ until a range is used up, which the row refuses rather than measure answers kept from earlier requests.
    for (const [name, who, distinct, search] of [
      [
        'GET /api/PaymentHistory?limit=25&q={one of its order numbers}, a new one each request (100,000 orders)',
        member,
        // Numbers from the member's first order to their last: the few other members' orders among them (the demo
        // data's) answer an empty page, as a mistyped number does.
        memberOrderNumbers.last - memberOrderNumbers.first + 1,
        stepping(
          memberOrderNumbers.last - memberOrderNumbers.first + 1,
          (k) => `/api/PaymentHistory?limit=25&q=${memberOrderNumbers.first + k}`,
        ),
      ],
      [
        'GET /api/admin/members?limit=25&q=number {n}, a new one each request (1,000,000 accounts)',
        admin,
        TEN_TIMES.accounts,
        stepping(TEN_TIMES.accounts, (k) => `/api/admin/members?limit=25&q=number%20${1 + k}`),
      ],
      [
        'GET /api/admin/audit?limit=25&q=entity {n}, a new one each request (1,000,000 entries)',
        admin,
        // The entities with five-digit ids: "entity 12345" is no other entity's name, nor part of one.
        TEN_TIMES.auditedEntities - 10_000,
        stepping(TEN_TIMES.auditedEntities - 10_000, (k) => `/api/admin/audit?limit=25&q=entity%20${10_000 + k}`),
      ],
    ] as const) {
      let asked = 0;
      const path = (n: number) => {
        asked = n + 1;
        return search(n);
      };
      const result = await beside(name, proven(who, search(0).split('?')[0]!, { path }));
      if (!result.skipped && asked > distinct) {
        throw new Error(`${name}: ${asked} requests, but only ${distinct} searches differ: some answers were kept`);
      }
      pageResults.push(result);
    }
    // The overview's series over the last 12 months: the first answer rolls the tables up (timed here); answers of
    // ranges not kept yet read the rollups (timed, by day and by month); an answer is then kept a minute, as a
    // dashboard opened by several administrators is, which the row measures.
    const today = todayIn('America/New_York');
    const metricsUrl = `/api/admin/metrics?from=${addDays(today, -364)}&to=${today}&interval=month`;
    const first = await timed(metricsUrl);
    const uncached: number[] = [];
    for (let back = 1; back <= 6; back += 1) {
      const interval = back % 2 === 0 ? 'day' : 'month';
      uncached.push(
        await timed(
          `/api/admin/metrics?from=${addDays(today, -364 - back)}&to=${addDays(today, -back)}&interval=${interval}`,
        ),
      );
    }
    metricsColdMs = { first, uncached };
    log(
      `GET /api/admin/metrics, 12 months: first ${first} ms (rolls up the tables), not kept yet ${uncached.join(', ')} ms`,
    );
    pageResults.push(
      await get('GET /api/admin/metrics, 12 months by month (1,000,000 orders and security events)', metricsUrl, admin),
    );
    endpoints.push(...pageResults);
    endpoints.push(
      await beside(
        'PUT /api/discountPackageProduct',
        proven(admin, '/api/discountPackageProduct', {
          method: 'PUT',
          body: JSON.stringify({
            discountPackageId: target.discountPackageId,
            productId: target.products[0]!.productId,
            price: 12.34,
          }),
        }),
      ),
    );
    /**
     * Entities of their own for ten connections, each in a stripe of the catalog's lock of its own (decisions 036 and
     * 040). Each request takes one no other request in flight has, and gives it back with its answer (autocannon
     * starts a connection's state afresh for every request). Every run starts with all of them free: a request the
     * run's end cut off only saved a value. Each save alternates its entity's value, so each is a real change.
     */
    const eachOwn = <T>(label: string, all: T[], idOf: (item: T) => number) => {
      const items = [...new Map(all.map((item) => [entityStripe(idOf(item)), item])).values()].slice(0, CONNECTIONS);
      if (items.length < CONNECTIONS) throw new Error(`only ${items.length} ${label} in stripes of their own`);
      let free = [...items];
      const saves = new Map<number, number>();
      return {
        reset: () => {
          free = [...items];
        },
        /** The entity taken, and whether this save is an even one of it. */
        take: (connection: Record<string, unknown>) => {
          const own = free.shift();
          if (own === undefined) throw new Error(`every one of the ${label} is taken: more requests than them`);
          connection['own'] = own;
          const saved = (saves.get(idOf(own)) ?? 0) + 1;
          saves.set(idOf(own), saved);
          return { own, even: saved % 2 === 0 };
        },
        answered: (connection: Record<string, unknown>) => free.push(connection['own'] as T),
      };
    };
    // Administrators typing prices at once, each into a package of their own (issue 39, item 3).
    const pricedPackages = eachOwn(
      'priced packages',
      packages.data.filter((p) => p.products.length > 0),
      (p) => p.discountPackageId,
    );
    endpoints.push(
      await beside(
        `PUT /api/discountPackageProduct, ${CONNECTIONS} connections each in a package of its own`,
        proven(admin, '/api/discountPackageProduct', {
          method: 'PUT',
          reset: pricedPackages.reset,
          body: (connection) => {
            const { own, even } = pricedPackages.take(connection);
            return JSON.stringify({
              discountPackageId: own.discountPackageId,
              productId: own.products[0]!.productId,
              price: even ? 12.34 : 12.35,
            });
          },
          answered: pricedPackages.answered,
        }),
      ),
    );

    // The other writes an administrator or a member makes while typing (issue 39, item 3), each a real change every
    // time (a value that alternates), so each writes its row and its audit entry.
    let edits = 0;
    /** A membership's fields as its save takes them, from its answer. */
    const fieldsOf = (m: object) =>
      Object.fromEntries(
        Object.keys(membershipInputSchema.shape).flatMap((key) =>
          key === 'membershipId' || !(key in m) ? [] : [[key, (m as Record<string, unknown>)[key]]],
        ),
      );
    const membershipFields = fieldsOf(
      ((await once(admin, `/api/membership/${membershipId}`)) as { data: Membership[] }).data[0]!,
    );
    const details = ((await once(member, '/api/userdetails/')) as { data: Record<string, unknown>[] }).data[0]!;
    const detailFields = Object.fromEntries(
      Object.keys(userDetailsInputSchema.shape).flatMap((key) =>
        // The email changes through its own confirmation, not with the rest.
        key !== 'email' && key in details && details[key] !== null ? [[key, details[key]]] : [],
      ),
    );
    for (const [name, who, url, method, body] of [
      [
        'PUT /api/discountPackage/{id} (name and description)',
        admin,
        `/api/discountPackage/${target.discountPackageId}`,
        'PUT',
        () => JSON.stringify({ name: `Bench package ${edits++ % 2}`, description: 'Edited while measured' }),
      ],
      [
        'PUT /api/membership/{id}',
        admin,
        `/api/membership/${membershipId}`,
        'PUT',
        () => JSON.stringify({ ...membershipFields, description: `Edited while measured ${edits++ % 2}` }),
      ],
      [
        'POST /api/userdetails/internal (personal information)',
        member,
        '/api/userdetails/internal',
        'POST',
        () => JSON.stringify({ ...detailFields, firstName: `Robin${edits++ % 2 === 0 ? '' : 'a'}` }),
      ],
    ] as const) {
      endpoints.push(await beside(name, proven(who, url, { method, body })));
    }

    // A package's name and a membership saved by ten administrators at once, each an entity of their own (decision
    // 040). Each request's address is its entity's, so its proof is signed as it is made.
    const toRename = eachOwn('packages', packages.data, (p) => p.discountPackageId);
    const someMemberships = ((await once(admin, '/api/membership?limit=100')) as { data: Membership[] }).data;
    const toSave = eachOwn('memberships', someMemberships, (m) => m.membershipId);
    for (const [name, each, save] of [
      [
        `PUT /api/discountPackage/{id} (name and description), ${CONNECTIONS} connections each on a package of its own`,
        toRename,
        (round: Round) => {
          const { own, even } = toRename.take(round);
          return {
            path: `/api/discountPackage/${own.discountPackageId}`,
            body: JSON.stringify({ name: `Bench package ${even ? 0 : 1}`, description: 'Edited while measured' }),
          };
        },
      ],
      [
        `PUT /api/membership/{id}, ${CONNECTIONS} connections each on a membership of its own`,
        toSave,
        (round: Round) => {
          const { own, even } = toSave.take(round);
          return {
            path: `/api/membership/${own.membershipId}`,
            body: JSON.stringify({ ...fieldsOf(own), description: `Edited while measured ${even ? 0 : 1}` }),
          };
        },
      ],
    ] as const) {
      const saving = rounds(admin, [
        {
          method: 'PUT',
          path: (round) => {
            round['save'] = save(round);
            return (round['save'] as { path: string }).path;
          },
          body: (round) => (round['save'] as { body: string }).body,
          then: (_answer, round) => each.answered(round),
        },
      ]);
      endpoints.push(await beside(name, { ...saving, prepare: each.reset }));
    }

    // The catalog's other writes (issue 39, item 3), each made and taken back by every connection in turn, so the
    // catalog stays as it was: a row's requests/s count both requests of its rounds.
    const productIds = ((await once(admin, '/api/product?limit=100')) as { data: { productId: number }[] }).data.map(
      (p) => p.productId,
    );
    /**
     * 100 pairs of an owner and a product it does not have, for rounds that add the product and remove it: the owners
     * in turn, so rounds in flight at once are of different owners as far as there are owners.
     */
    const withoutProduct = <T>(owners: T[], has: (owner: T) => number[]) => {
      const missing = owners.map((owner) => productIds.filter((id) => !has(owner).includes(id)));
      return Array.from({ length: 100 }, (_, n) => {
        const owner = n % owners.length;
        return { owner: owners[owner]!, productId: missing[owner]![Math.floor(n / owners.length)]! };
      }).filter((pair) => pair.productId !== undefined);
    };
    const packageProducts = handOut(
      withoutProduct(packages.data, (p) => p.products.map((product) => product.productId)).map(
        ({ owner, productId }) => ({ discountPackageId: owner.discountPackageId, productId }),
      ),
    );
    const promotionalLinks = handOut(
      withoutProduct(someMemberships, (m) => m.promotionalProducts.map((product) => product.productId)).map(
        ({ owner, productId }) => ({ membershipId: owner.membershipId, productId }),
      ),
    );
    const created = (key: string) => (answer: unknown, round: Round) => {
      round['id'] = (answer as { data: Record<string, number>[] }).data[0]![key];
    };
    for (const [name, steps] of [
      [
        'POST /api/membership, then DELETE /api/membership/{id}',
        [
          {
            method: 'POST',
            path: () => '/api/membership',
            body: () => JSON.stringify({ ...membershipFields, name: 'Bench membership' }),
            then: created('membershipId'),
          },
          { method: 'DELETE', path: (round) => `/api/membership/${String(round['id'])}` },
        ],
      ],
      [
        'POST /api/discountPackage, then DELETE /api/discountPackage/{id}',
        [
          {
            method: 'POST',
            path: () => '/api/discountPackage',
            body: () => JSON.stringify({ name: 'Bench package', description: 'Made while measured' }),
            then: created('discountPackageId'),
          },
          { method: 'DELETE', path: (round) => `/api/discountPackage/${String(round['id'])}` },
        ],
      ],
      [
        'POST /api/discountPackageProduct, then DELETE it (a product into a package and out)',
        [
          {
            method: 'POST',
            path: () => '/api/discountPackageProduct',
            body: (round) => JSON.stringify({ ...packageProducts.take(round), price: 9.99 }),
          },
          {
            method: 'DELETE',
            path: () => '/api/discountPackageProduct',
            body: (round) => JSON.stringify(packageProducts.held(round)),
            then: (_answer, round) => packageProducts.give(round),
          },
        ],
      ],
      [
        'POST /api/promotionalProduct, then DELETE it (a promotional link made and removed)',
        [
          {
            method: 'POST',
            path: () => '/api/promotionalProduct',
            body: (round) => JSON.stringify(promotionalLinks.take(round)),
          },
          {
            method: 'DELETE',
            path: () => '/api/promotionalProduct',
            body: (round) => JSON.stringify(promotionalLinks.held(round)),
            then: (_answer, round) => promotionalLinks.give(round),
          },
        ],
      ],
    ] as const satisfies readonly (readonly [string, readonly Step[]])[]) {
      endpoints.push(await beside(name, rounds(admin, [...steps])));
    }

    /**
     * The server's and PostgreSQL's memory once the load is over and the server has idled, then the time a start on
     * this data folder (every row the benchmark grew) takes to `GET /api/health` = 200.
     */
    const closingFigures = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const afterBench = await footprint(server.pid!, await postmaster(), serverMetricsUrl);
      server.kill('SIGTERM');
      const code = await exited(server);
      // A start that took a running PostgreSQL over would leave PostgreSQL's own start out of the figure.
      if (code !== 0 || (await runningPostmaster(prepared.pgData))) {
        throw new Error(`the server stopped with ${code} and left its PostgreSQL running: no start-up to measure`);
      }
      const startUp = await startUpMs(base, () => {
        server = prepared.start().child;
        return server;
      });
      log(
        `after the benchmark: server ${afterBench.serverRssMb} MB resident, PostgreSQL ${afterBench.postgresPssMb} MB; ` +
          `a start on this data folder answered /api/health after ${startUp} ms; ` +
          `its parts then: ${JSON.stringify(afterBench.parts)}`,
      );
      return { afterBench, startUpMs: startUp };
    };
    if (PRINT_ONLY) {
      for (const r of [reference, ...endpoints].filter((result) => !result.skipped)) log(described(r));
      await closingFigures();
      return;
    }
    const bundles = webBundles(path.join(root, 'apps/web/dist'));

    log('Lighthouse (mobile) in Debian Chromium');
    const lighthouseResults = await lighthouseAudits(base, { member: MEMBER, admin: ADMIN }, LIGHTHOUSE);
    const closing = await closingFigures();
    const report = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
      settings: {
        durationSeconds: DURATION,
        warmupSeconds: WARMUP,
        connections: CONNECTIONS,
        ...(SERVER_NODE_ARGS.length > 0 ? { serverNodeArgs: SERVER_NODE_ARGS } : {}),
      },
      data: counts,
      largeData: large,
      metricsColdMs,
      growSeconds,
      load: { reference, endpoints },
      frontEnd: {
        accountPage: { jsGzipBytes: bundles.account.jsGzipBytes, cssGzipBytes: bundles.account.cssGzipBytes },
        adminConsole: { jsGzipBytes: bundles.admin.jsGzipBytes, cssGzipBytes: bundles.admin.cssGzipBytes },
      },
      lighthouse: lighthouseResults,
      identity: {
        burst,
        footprint: { idleAfterStart, afterBench: closing.afterBench },
        startUpMs: closing.startUpMs,
        passwordCheckMs: passwordCheck,
        handOverUs: handOver,
        argon2: { memoryKiB: ARGON2.memoryCost, passes: ARGON2.timeCost, parallelism: ARGON2.parallelism },
        identitySeconds: IDENTITY_SECONDS,
        identityWarmupSeconds: IDENTITY_WARMUP,
      },
    };
    await fs.writeFile(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    await fs.writeFile(path.join(root, 'bench/results/latest.md'), markdown(report));
    log('wrote bench/results/latest.md and latest.json');
  } finally {
    server.kill('SIGTERM');
    await exited(server);
    await prepared.cleanup();
  }
}

function markdown(report: {
  date: string;
  machine: { cpus: number; memoryGiB: number; node: string };
  settings: { durationSeconds: number; warmupSeconds: number; connections: number; serverNodeArgs?: string[] };
  data: Record<string, number>;
  largeData: Record<string, number>;
  metricsColdMs: { first: number; uncached: number[] } | null;
  growSeconds: number | null;
  load: { reference: LoadResult; endpoints: LoadResult[] };
  frontEnd: Record<string, { jsGzipBytes: number; cssGzipBytes: number }>;
  lighthouse: LighthouseResult[];
  identity: {
    burst: BurstResult | null;
    footprint: { idleAfterStart: Footprint; afterBench: Footprint };
    startUpMs: number;
    passwordCheckMs: number;
    /** Absent from the reports of runs before it was measured. */
    handOverUs?: number;
    argon2: { memoryKiB: number; passes: number; parallelism: number };
    identitySeconds: number;
    identityWarmupSeconds: number;
  };
}): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const cores = report.machine.cpus;
  const found = (name: string) => report.load.endpoints.find((r) => r.name === name);
  const identityRow = (work: string, r: LoadResult | undefined, keycloak: number | null) => {
    if (!r || r.skipped) return `| ${work} | not measured | | | | | |`;
    const perCore = r.requestsPerSecond / cores;
    return `| ${work} | ${r.requestsPerSecond} | ${perCore.toFixed(1)} | ${keycloak ?? 'not published'} | ${keycloak === null ? '' : `${(perCore / keycloak).toFixed(2)}x`} | ${r.p50Ms} | ${r.p99Ms} |`;
  };
  /** The same work by what it cost: CPU of the server and of PostgreSQL each, and per core of the server's CPU. */
  const costRow = (work: string, r: LoadResult | undefined, keycloak: number | null) => {
    const cost = r?.perFlow;
    if (!cost || cost.serverCpuMs === 0) return `| ${work} | not measured | | | | | | |`;
    const perServerCore = cost.serverCpuMs > 0 ? 1000 / cost.serverCpuMs : 0;
    return `| ${work} | ${cost.serverCpuMs} | ${cost.postgresCpuMs} | ${cost.browsersCpuMs} | ${cost.transactions} | ${perServerCore.toFixed(1)} | ${keycloak ?? 'not published'} | ${keycloak === null ? '' : `${(perServerCore / keycloak).toFixed(2)}x`} |`;
  };
  const { burst, footprint: memory } = report.identity;
  const row = (r: LoadResult) =>
    `| ${r.name} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} | ${r.non2xx} | ${r.referenceRequestsPerSecond ?? r.requestsPerSecond} | ${r.ratioToReference ?? 1} |`;
  return `# Benchmark results

Run ${report.date} on ${report.machine.cpus} cores, ${report.machine.memoryGiB} GiB, Node ${report.machine.node}.
Production build, embedded PostgreSQL, load generator (autocannon, ${report.settings.connections} connections,
${report.settings.durationSeconds} s each, after ${report.settings.warmupSeconds} s of unmeasured load on the same call, beside as long of the reference
route) on the same machine over loopback.${
    report.settings.serverNodeArgs
      ? `\nA trial: the server ran with Node's options \`${report.settings.serverNodeArgs.join(' ')}\` (BENCH_SERVER_NODE_ARGS).`
      : ''
  }

Data for the whole lists and the member reads: ${report.data['products']} products, ${report.data['memberships']} memberships with ${report.data['promotional']} promotional links, the demo member has ${report.data['orders']} orders and ${report.data['subscriptions']} active subscriptions; ${report.data['revocations']} revoked sessions are held in memory.
Then, for the pages (\`limit=25\`), searches (\`q\`) and the overview: ${report.largeData['products']} products, ${report.largeData['memberships']} memberships with ${report.largeData['promotional']} promotional links, ${report.largeData['orders']} orders for the demo member, ${report.largeData['accounts']} accounts in the member directory and ${report.largeData['auditEntries']} audit entries; for the overview's series, ${report.largeData['allOrders']} orders of all members over a year and ${report.largeData['securityEvents']} security events over the 89 days they are kept. Growing the pages' data (set-based inserts, then \`VACUUM ANALYZE\`) took ${report.growSeconds ?? 'n/a'} s.
The series' first answer for 12 months, which rolls those tables up per quarter hour (decision 031), took ${report.metricsColdMs?.first ?? 'n/a'} ms; answers of 12-month ranges no process kept yet, read from the rollups and the quarter hours after them, took ${report.metricsColdMs ? `${median(report.metricsColdMs.uncached)} ms (median; ${Math.max(...report.metricsColdMs.uncached)} ms at most, by day and by month)` : 'n/a'}; an answer is then kept a minute per range and interval (a new order or sign-in shows within it), which the row measures.

## API

| Call | Requests/s | p50 ms | p99 ms | Errors | Non-2xx | Reference beside it, requests/s | Ratio to reference |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${row(report.load.reference)}
${report.load.endpoints.map(row).join('\n')}

Every call is made as the web app makes it: the embedded provider binds its web client's tokens to the browser's key
(DPoP), and each request carries a new proof of it (signed by the load generator before the run, as a browser signs
on its own processor), which the API verifies (signature, key thumbprint, method, address, age, token hash) and
records in PostgreSQL so that no process accepts it twice.
The two sign-in rows are whole sign-ins by ${report.settings.connections} scripted browsers at once, each another account's: authorize, the
sign-in page, the password (and, in the second, the "Two-step verification" page with the authenticator app's code),
back to the app, and the token request with its DPoP proof; their figures are sign-ins per second and the time of one
from the first request to the tokens, beside as long of the reference before them. Each sign-in makes its browser's
DPoP key and signs its proofs inside the timed loop, as a browser does at sign-in: nothing of a sign-in is made
before it starts. The scripted browsers send their requests over kept-alive connections of Node's own HTTP client
(\`node:http\`): with \`fetch\` they spent 4.7 ms of CPU per sign-in, with it 3.2 ms, on the cores the server uses
(decision 041).
The reference route verifies the token and its proof and answers a small JSON without touching the database. Its first row
is it alone. Every other call is measured beside it: the call's ${report.settings.durationSeconds} s are cut into ${SLICES} slices, each right after a
slice of the reference of the same length, and the ratio is the call's requests over the reference's in those
slices (its requests/s are in the column before the ratio), so a moment when the machine runs slower weighs on
both. p50 is the slices' median, p99 the highest of them. The pages, searches, overview and the writes are
measured once the data has grown and PostgreSQL's background work is over.
Every write is a real change each time (its value alternates), so each writes its row and its audit entry; the rows
named "each ... of its own" give every request an entity (in a stripe of the catalog's lock of its own) that no other
request in flight has, as ten administrators each editing their own. The rows of a create then a delete (or an add
then a remove) run the two in turn on every connection and count both; in them, and in the rows of entities of their
own but for the price's, the load generator signs each proof as it makes the request (the address holds an id known
only then), on the cores the server uses. Every route's token check, the reference's included, also looks the token's account and session up among the revoked
ones held in memory (no database round trip); the member reads (details, subscriptions) are compared with it.
PostgreSQL builds every list answer and the member's details as JSON text (one
prepared statement); the API sends it as it comes.
Catalog answers (memberships, packages, products, promotional links, overview) are kept in memory per catalog
version: each request still reads the version from PostgreSQL (the sum of its 16 stripes, in one statement), and
any catalog write, on any process, makes the next request build afresh. A member's lists (payment history, subscriptions) are kept the same
way per member version, which every write to that member's orders or subscriptions moves on (and the catalog's
version, for the products' names). GET /api/PaymentHistory without parameters returns all of the member's orders
(the whole list, as the specification's call does); the account page asks for pages. A search's answer is kept from
its second ask (decision 046): the rows of a new search every request are PostgreSQL's query each time, sent without
the version's read, and a search's longest word of 4 characters or more holding a digit is what its trigram index
is given; in the directory and the audit trail, a search holding 5 digits or more in a row is looked up by that run
in an index of the texts' runs of digits (decision 047).

The pages' and searches' first answers after the data grew, before anything was kept for them: PostgreSQL's own
query on the grown tables, one request each, with the token check and the proof.

| Call | First answer ms |
| --- | ---: |
${report.load.endpoints
  .filter((r) => r.firstAnswerMs !== undefined)
  .map((r) => `| ${r.name} | ${r.firstAnswerMs} |`)
  .join('\n')}

## Identity, memory and start-up, beside Keycloak's sizing guide

Keycloak's sizing guide ("Concepts for sizing CPU and memory resources") allots one vCPU per ${KEYCLOAK.signInsPerCore} password sign-ins
per second and per ${KEYCLOAK.refreshesPerCore} refresh-token requests per second, and ${KEYCLOAK.baseMemoryMb} MB of memory for one node with its realm
data and 10,000 sessions cached. Keycloak's figures are for Keycloak alone behind TLS; here the calls are plain HTTP
over loopback, and the scripted browsers (their keys, proofs and pages) run on the same cores as the server.
Here the server, its PostgreSQL and the scripted browsers share this machine's ${cores} cores: per core is the rate divided
by ${cores}. Issue 39's goals are twice Keycloak's figures. Each row ran ${report.identity.identitySeconds} s after ${report.identity.identityWarmupSeconds} s of the same flow unmeasured,
${report.settings.connections} browsers at a time, each signing in from an address of its own behind the load balancer (\`TRUST_PROXY\`), as members do. Passwords are hashed with argon2id at ${report.identity.argon2.memoryKiB} KiB, ${report.identity.argon2.passes} passes, parallelism ${report.identity.argon2.parallelism} (OWASP's minimum),
and nothing is turned off for the benchmark: every token and its DPoP proof is checked, revocations are looked up,
sign-ins are held to their attempt limits and recorded in the security events, writes are audited.
One password check alone takes ${report.identity.passwordCheckMs} ms here (the median of 30 in a row, on the idle machine before the load): a core
that did nothing else could check ${Math.floor(1000 / report.identity.passwordCheckMs)} passwords per second, the ceiling of the first row per core.${
    report.identity.handOverUs === undefined
      ? ''
      : `
A sign-in also hands work over between processes many times: for each of its statements to PostgreSQL, over its Unix
socket (the table below counts their transactions), and for each of the browser's requests, over loopback TCP. One
hand-over like a statement's, a byte to another Node process over a Unix socket and back, takes ${report.identity.handOverUs} µs here (the
median of 5 runs of 4,000, before the load): system calls, waking the other process and switching to it, and a turn
of each side's event loop, which the password check does not measure (\`handOverUs\` in \`bench/identity.ts\`).`
  }

| Work | Per second | Per core | Keycloak per vCPU | Per core against Keycloak | p50 ms | p99 ms |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${identityRow('Sign-in with a password (whole flow)', found(IDENTITY_ROWS.password), KEYCLOAK.signInsPerCore)}
${identityRow('Sign-in with a password and an authenticator code', found(IDENTITY_ROWS.withCode), null)}
${identityRow('Refresh-token grant (rotation, DPoP)', found(IDENTITY_ROWS.refresh), KEYCLOAK.refreshesPerCore)}

What each of them cost, over the same measured time: CPU of the server process (all its threads, the password
hashes' included) and of PostgreSQL (all its processes), read from /proc, and PostgreSQL transactions, each divided
by the flows completed. Keycloak's figure is for Keycloak's own CPU, its database apart, so the nearest comparison
is per core of the server's CPU: 1,000 ms over the server's CPU ms per flow. The scripted browsers' CPU (this
benchmark's process, on the same cores) is in a column of its own: a member's browser does that work on its own machine.

| Work | Server CPU ms each | PostgreSQL CPU ms each | Scripted browsers' CPU ms each | PostgreSQL transactions each | Per core of server CPU | Keycloak per vCPU | Against Keycloak |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${costRow('Sign-in with a password (whole flow)', found(IDENTITY_ROWS.password), KEYCLOAK.signInsPerCore)}
${costRow('Sign-in with a password and an authenticator code', found(IDENTITY_ROWS.withCode), null)}
${costRow('Refresh-token grant (rotation, DPoP)', found(IDENTITY_ROWS.refresh), KEYCLOAK.refreshesPerCore)}

${
  burst
    ? `A burst of ${burst.started} sign-ins started at the same moment: ${burst.completed} completed and ${burst.failed} failed${burst.firstFailure ? ` (the first: ${burst.firstFailure})` : ''}, each taking ${burst.p50Ms} ms at the median and ${burst.p99Ms} ms at p99 (goal: none failed, p99 under 5,000 ms); all done in ${burst.wallMs} ms. The reference route, loaded by ${report.settings.connections} connections all through it, answered ${burst.referenceRequests} requests (${burst.referenceNon2xx} not 2xx) with a p99 of ${burst.referenceP99Ms} ms (goal: under 50 ms). The reference's load runs in a worker thread of its own, so its latencies are the server's answers rather than waits behind the scripted browsers; the sign-ins' times include the 200 browsers' own work (their keys and proofs), which shares this machine's cores and one thread. Its CPU, in seconds of the ${burst.cpu.machine} the machine's cores had during it: the server's event loop ${burst.cpu.serverMain}, its other threads (password hashes, garbage collection) ${burst.cpu.serverOther}, PostgreSQL ${burst.cpu.postgres}, this benchmark's process (the browsers and the reference's load) ${burst.cpu.bench}, idle ${burst.cpu.idle}.`
    : 'The burst of sign-ins was not measured in this run.'
}

| Memory | Server (resident) | PostgreSQL (proportional, all its processes) | Keycloak, one node with 10,000 sessions |
| --- | ---: | ---: | ---: |
| Idle after its start | ${memory.idleAfterStart.serverRssMb} MB | ${memory.idleAfterStart.postgresPssMb} MB | ${KEYCLOAK.baseMemoryMb} MB |
| Idle after the whole benchmark | ${memory.afterBench.serverRssMb} MB | ${memory.afterBench.postgresPssMb} MB | |

Where the server's resident memory is, from its own metrics (\`METRICS_PORT\`): V8's heap (what its objects use, of
what it holds), memory JavaScript objects own outside it (buffers), and what the caches keep, the answer caches
sharing one budget (\`CACHE_MEMORY_MB\`, ${CACHE_MEMORY_MB} MB by default, which the benchmark keeps) and the DPoP memos their own. The rest is the code, the threads'
stacks and what native libraries allocate.

| Server | Resident | V8 heap used / held | Outside the heap | Caches |
| --- | ---: | ---: | ---: | --- |
${[
  ['Idle after its start', memory.idleAfterStart],
  ['Idle after the whole benchmark', memory.afterBench],
]
  .map(([when, f]) => {
    const { serverRssMb, parts } = f as Footprint;
    const caches = Object.entries(parts.cachesMb)
      .filter(([, kept]) => kept > 0)
      .map(([name, kept]) => `${name} ${kept} MB`)
      .join(', ');
    return `| ${when as string} | ${serverRssMb} MB | ${parts.heapUsedMb} / ${parts.heapTotalMb} MB | ${parts.externalMb} MB | ${caches || 'none'} |`;
  })
  .join('\n')}

A start on the benchmark's data folder, with all the rows it grew, answered \`GET /api/health\` with 200 after
${report.identity.startUpMs} ms (goal: 5,000 ms at most).

## Front end (gzip)

| Screen | JavaScript | CSS |
| --- | ---: | ---: |
| Account page | ${kb(report.frontEnd['accountPage']!.jsGzipBytes)} | ${kb(report.frontEnd['accountPage']!.cssGzipBytes)} |
| Admin dashboard | ${kb(report.frontEnd['adminConsole']!.jsGzipBytes)} | ${kb(report.frontEnd['adminConsole']!.cssGzipBytes)} |

Budgets (\`npm run check:budgets\`): 150 KB of JavaScript for the account page, 200 KB for the admin dashboard.
The CSS is the page's own stylesheets: the styles Griffel compiled at build time, extracted from the scripts.

## Lighthouse (mobile emulation, simulated slow 4G, Debian Chromium)

Each figure is the median of ${report.lighthouse[0]?.runs ?? 0} runs of the page (Lighthouse's advice for a figure that varies between runs); the
last columns have every run's blocking time, in the order they ran, and Lighthouse's benchmark index of this machine
while the page ran (higher is faster): the blocking time is the observed main-thread work times the simulated phone's
slowdown, so it moves with the machine's speed and with whatever else shared its two cores.

| Page | Performance | FCP ms | LCP ms | Interactive ms | TBT ms | CLS | LCP element | Ended at | TBT of each run ms | Benchmark index |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | ---: |
${report.lighthouse.map((l) => `| ${l.name} | ${l.score === null ? 'n/a' : Math.round(l.score * 100)} | ${l.fcpMs} | ${l.lcpMs} | ${l.ttiMs ?? 'n/a'} | ${l.tbtMs} | ${l.cls} | \`${l.lcpElement.replaceAll('|', '\\|').replaceAll('`', "'")}\` | \`${new URL(l.finalUrl).pathname}\` | ${l.tbtRunsMs.join(', ')} | ${l.benchmarkIndex} |`).join('\n')}

Signed-in pages are opened in a new tab of a browser that has signed in (the member for the account page, the
administrator for the dashboard): the tab has no tokens of its own. "Signed-in tab open": another tab of the app
hands its session over, no request leaves for the provider. "No other tab open": the provider's session cookie
answers a hidden frame (the frame's page is counted among the documents). Neither goes through the provider's
pages: each audit ends on the page it opened.
`;
}

if (process.env['BENCH_RENDER']) {
  // BENCH_RENDER=1 writes latest.md again from latest.json, after a change to the report's wording.
  const json = path.join(root, 'bench/results/latest.json');
  await fs.writeFile(path.join(root, 'bench/results/latest.md'), markdown(JSON.parse(await fs.readFile(json, 'utf8'))));
} else {
  await main();
}
