// The identity side of `npm run bench` (issue 39): a burst of sign-ins at once, the memory the server and its
// PostgreSQL hold and the time a start takes, beside the figures Keycloak's sizing guide publishes.
import { readdir, readFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import { hashPassword, verifyPassword } from '../apps/api/src/identity/password-hash.js';

/**
 * Keycloak's sizing guide ("Concepts for sizing CPU and memory resources"): one vCPU per 15 password sign-ins per
 * second and per 120 refresh-token requests per second, and 1,250 MB of memory as the base of one node.
 */
export const KEYCLOAK = { signInsPerCore: 15, refreshesPerCore: 120, baseMemoryMb: 1250 } as const;

const at = (sorted: readonly number[], share: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0);

export interface BurstResult {
  started: number;
  completed: number;
  failed: number;
  firstFailure?: string;
  p50Ms: number;
  p99Ms: number;
  wallMs: number;
  /** The reference route, loaded all through the burst: its p99 and the requests it answered. */
  referenceP99Ms: number;
  referenceRequests: number;
  referenceNon2xx: number;
}

/**
 * `signIns` started at the same moment, while the reference route is loaded as usual beside them: how long each took
 * to its tokens, how many failed, and whether the API kept answering (the reference's p99 during the burst).
 */
export async function signInBurst(
  reference: autocannon.Options,
  connections: number,
  signIns: (() => Promise<unknown>)[],
): Promise<BurstResult> {
  let referenceRun: autocannon.Instance | undefined;
  const referenceDone = new Promise<autocannon.Result>((resolve, reject) => {
    referenceRun = autocannon({ ...reference, connections, duration: 600 }, (error, result) =>
      error ? reject(error as Error) : resolve(result),
    );
  });
  // The reference's connections are open and answering before the burst starts.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const took: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  await Promise.all(
    signIns.map(async (signIn) => {
      const begun = performance.now();
      try {
        await signIn();
        took.push(performance.now() - begun);
      } catch (error) {
        failed += 1;
        firstFailure ??= (error as Error).message;
      }
    }),
  );
  const wallMs = Math.round(performance.now() - started);
  referenceRun!.stop();
  const referenceResult = await referenceDone;
  took.sort((a, b) => a - b);
  return {
    started: signIns.length,
    completed: took.length,
    failed,
    ...(firstFailure === undefined ? {} : { firstFailure }),
    p50Ms: at(took, 0.5),
    p99Ms: at(took, 0.99),
    wallMs,
    referenceP99Ms: referenceResult.latency.p99,
    referenceRequests: referenceResult.requests.total,
    referenceNon2xx: referenceResult.non2xx,
  };
}

/** A process's resident memory, in MB (VmRSS). */
async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}

/**
 * The memory of a PostgreSQL server, in MB: the proportional set size of the postmaster and every process it started
 * (backends, checkpointer, WAL writer...), so the shared buffers they all map count once, not once per process.
 */
async function postgresMb(postmaster: number): Promise<number> {
  const pids = [postmaster];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // The fields after the command (in parentheses, which may hold spaces): state, then the parent's pid.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === postmaster) pids.push(Number(entry));
    } catch {
      // gone since the listing
    }
  }
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/^Pss:\s+(\d+) kB$/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // a backend that ended since the listing
    }
  }
  return Math.round(kb / 1024);
}

export interface Footprint {
  serverRssMb: number;
  postgresPssMb: number;
}

export const footprint = async (server: number, postmaster: number): Promise<Footprint> => ({
  serverRssMb: await residentMb(server),
  postgresPssMb: await postgresMb(postmaster),
});

/** Time from spawning a server on an existing data folder until `GET /api/health` answers 200, in ms. */
export async function startUpMs(base: string, spawnServer: () => void): Promise<number> {
  const started = performance.now();
  spawnServer();
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) return Math.round(performance.now() - started);
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 60_000) throw new Error('the server did not answer /api/health within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * One password check alone, as the server makes it (the product's argon2id settings), in ms: the median of `times`
 * checks one after the other on an idle machine. 1,000 divided by it is what one core could check per second if a
 * sign-in were nothing else.
 */
export async function passwordCheckMs(times = 30): Promise<number> {
  const stored = await hashPassword('Bench-Check-2026!');
  const took: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    if (!(await verifyPassword('Bench-Check-2026!', stored))) throw new Error('the password check failed');
    took.push(performance.now() - started);
  }
  took.sort((a, b) => a - b);
  return Number(took[Math.floor(times / 2)]!.toFixed(1));
}
