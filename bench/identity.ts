// The identity side of `npm run bench` (issue 39): a burst of sign-ins at once, the memory the server and its
// PostgreSQL hold and the time a start takes, beside the figures Keycloak's sizing guide publishes.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { hashPassword, verifyPassword } from '../apps/api/src/identity/password-hash.js';
import { median, percentile } from './median.js';

/** What the reference's worker (reference-load.mjs) is handed: the route, the token and its signed DPoP proofs. */
export interface ReferenceLoad {
  url: string;
  authorization: string;
  proofs: string[];
  connections: number;
}

/** What the worker answers once told to stop. */
type ReferenceLoadResult = { p99Ms: number; requests: number; non2xx: number; proofsLeft: number } | { error: string };

/**
 * Keycloak's sizing guide ("Concepts for sizing CPU and memory resources"): one vCPU per 15 password sign-ins per
 * second and per 120 refresh-token requests per second, and 1,250 MB of memory for one node with its realm data and
 * 10,000 sessions cached.
 */
export const KEYCLOAK = { signInsPerCore: 15, refreshesPerCore: 120, baseMemoryMb: 1250 } as const;

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
  /** Where the machine's cores went during the burst, in CPU seconds (see BurstCpu). */
  cpu: BurstCpu;
}

/**
 * CPU seconds spent during a burst, by whom: the server's event loop (its main thread) and the rest of its threads (the
 * password hashes, the garbage collector's), PostgreSQL, and this benchmark's own process (the scripted browsers and
 * the reference's load); and what the machine had (its cores times the burst's time) and left idle.
 */
export interface BurstCpu {
  serverMain: number;
  serverOther: number;
  postgres: number;
  bench: number;
  machine: number;
  idle: number;
}

/** The machine's CPU seconds so far, in all and idle (the first line of /proc/stat: idle and iowait). */
async function machineCpuSeconds(): Promise<{ all: number; idle: number }> {
  const ticks = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  return {
    all: ticks.reduce((sum, n) => sum + n, 0) / TICKS_PER_SECOND,
    idle: (ticks[3]! + ticks[4]!) / TICKS_PER_SECOND,
  };
}

/** CPU seconds this process (the benchmark: its scripted browsers and worker threads) has used so far. */
export function benchCpuSeconds(): number {
  const { system, user } = process.cpuUsage();
  return (system + user) / 1e6;
}

/** A reading of everything BurstCpu shares out. */
async function burstReading(server: number, postmaster: () => Promise<number>) {
  const whole = await cpuSeconds(server, await postmaster());
  return {
    ...whole,
    // The main thread's task has the process's own id.
    serverMain: await cpuSecondsOf(`/proc/${server}/task/${server}/stat`),
    bench: benchCpuSeconds(),
    machine: await machineCpuSeconds(),
  };
}

/**
 * `signIns` started at the same moment, while the reference route is loaded as usual beside them: how long each took
 * to its tokens, how many failed, and whether the API kept answering (the reference's p99 during the burst). The
 * reference's load runs in a worker thread of its own (reference-load.mjs), so its latencies are not waits behind the
 * scripted browsers' keys and proofs in this thread.
 */
export async function signInBurst(
  reference: ReferenceLoad,
  signIns: (() => Promise<unknown>)[],
  processes: { server: number; postmaster: () => Promise<number> },
): Promise<BurstResult> {
  const worker = new Worker(new URL('./reference-load.mjs', import.meta.url), { workerData: reference });
  const referenceDone = new Promise<ReferenceLoadResult>((resolve, reject) => {
    worker.on(
      'message',
      (message: ReferenceLoadResult | 'answered') => void (message !== 'answered' && resolve(message)),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the reference's load stopped (exit ${code}) before its result`)));
  });
  // The burst starts beside a reference that is answering, not before it.
  await Promise.race([
    new Promise((resolve) => worker.once('message', resolve)),
    referenceDone.then(() => {
      throw new Error("the reference's load ended before its first answer");
    }),
  ]);
  const took: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  const before = await burstReading(processes.server, processes.postmaster);
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
  const after = await burstReading(processes.server, processes.postmaster);
  worker.postMessage('stop');
  const referenceResult = await referenceDone;
  await worker.terminate();
  if ('error' in referenceResult) {
    throw new Error(`the reference's load failed during the burst: ${referenceResult.error}`);
  }
  if (referenceResult.proofsLeft === 0) throw new Error("the reference's load ran out of signed proofs");
  took.sort((a, b) => a - b);
  return {
    started: signIns.length,
    completed: took.length,
    failed,
    ...(firstFailure === undefined ? {} : { firstFailure }),
    p50Ms: percentile(took, 0.5),
    p99Ms: percentile(took, 0.99),
    wallMs,
    referenceP99Ms: referenceResult.p99Ms,
    referenceRequests: referenceResult.requests,
    referenceNon2xx: referenceResult.non2xx,
    cpu: {
      serverMain: tenths(after.serverMain - before.serverMain),
      serverOther: tenths(after.server - after.serverMain - (before.server - before.serverMain)),
      postgres: tenths(after.postgres - before.postgres),
      bench: tenths(after.bench - before.bench),
      machine: tenths(after.machine.all - before.machine.all),
      idle: tenths(after.machine.idle - before.machine.idle),
    },
  };
}

const tenths = (seconds: number) => Math.round(seconds * 10) / 10;

/** A process's resident memory, in MB (VmRSS). */
async function residentMb(pid: number): Promise<number> {
  const resident = /^VmRSS:\s+(\d+) kB$/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (resident === undefined) throw new Error(`process ${pid} gives no resident memory`);
  return Math.round(Number(resident) / 1024);
}

/** A process that ended since /proc was listed: its files are gone. */
const ended = (error: unknown) =>
  (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH';

/** The fields of /proc/<pid>/stat after the command (in parentheses, which may hold spaces): state is [0]. */
const statFields = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/** The postmaster and every process it started. */
async function postgresProcesses(postmaster: number): Promise<number[]> {
  const pids = [postmaster];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent's pid follows the state.
      if (Number(statFields(await readFile(`/proc/${entry}/stat`, 'utf8'))[1]) === postmaster) pids.push(Number(entry));
    } catch (error) {
      if (!ended(error)) throw error;
    }
  }
  return pids;
}

/**
 * The memory of a PostgreSQL server, in MB: the proportional set size of the postmaster and every process it started
 * (backends, checkpointer, WAL writer...), so the shared buffers they all map count once, not once per process.
 */
async function postgresMb(postmaster: number): Promise<number> {
  const pids = await postgresProcesses(postmaster);
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/^Pss:\s+(\d+) kB$/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch (error) {
      if (!ended(error)) throw error;
    }
  }
  return Math.round(kb / 1024);
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds a process or one of its threads (its `stat` file) has used so far, user and system, 0 once it has ended;
 * with `reaped`, also those of a process's children that ended and were waited for (PostgreSQL's postmaster reaps the
 * backends of closed connections).
 */
async function cpuSecondsOf(stat: string, reaped = false): Promise<number> {
  try {
    const fields = statFields(await readFile(stat, 'utf8'));
    // utime, stime, cutime, cstime: fields 14-17 of the line, 11-14 after the command.
    const times = fields.slice(11, reaped ? 15 : 13).map(Number);
    return times.reduce((sum, ticks) => sum + ticks, 0) / TICKS_PER_SECOND;
  } catch (error) {
    if (ended(error)) return 0;
    throw error;
  }
}

export interface CpuSeconds {
  server: number;
  postgres: number;
}

/**
 * CPU seconds used so far by the server process (all its threads, the password hashes' too) and by PostgreSQL (the
 * postmaster, every process it runs, and those it reaped). The difference of two readings is the work done between
 * them, whatever else (the scripted browsers) shares the machine. A backend that ends between the two listings of one
 * reading counts in neither; the benchmark's connections stay open, so that is rare and small.
 */
export async function cpuSeconds(server: number, postmaster: number): Promise<CpuSeconds> {
  let postgres = await cpuSecondsOf(`/proc/${postmaster}/stat`, true);
  for (const pid of (await postgresProcesses(postmaster)).slice(1)) postgres += await cpuSecondsOf(`/proc/${pid}/stat`);
  return { server: await cpuSecondsOf(`/proc/${server}/stat`), postgres };
}

export interface Footprint {
  serverRssMb: number;
  postgresPssMb: number;
  /** Where the server's memory is, from its metrics. */
  parts: MemoryParts;
}

/**
 * The server's memory by part, read from its metrics (METRICS_PORT): V8's heap (what its objects use, and what it holds
 * for them), memory outside the heap that JavaScript objects own (buffers), and the answers its caches keep (each
 * cache's, in megabytes). The rest of the resident memory is the code, the threads' stacks and what native libraries
 * allocate.
 */
export interface MemoryParts {
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  cachesMb: Record<string, number>;
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

async function memoryParts(metricsUrl: string): Promise<MemoryParts> {
  const text = await (await fetch(metricsUrl)).text();
  const sample = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const cachesMb: Record<string, number> = {};
  for (const [, cache, bytes] of text.matchAll(/^ums_cache_bytes\{cache="([^"]+)"\} (\S+)$/gm)) {
    cachesMb[cache!] = Math.round(Number(bytes) / 2 ** 17) / 8;
  }
  return {
    heapUsedMb: mb(sample('nodejs_heap_size_used_bytes')),
    heapTotalMb: mb(sample('nodejs_heap_size_total_bytes')),
    externalMb: mb(sample('nodejs_external_memory_bytes')),
    cachesMb,
  };
}

export const footprint = async (server: number, postmaster: number, metricsUrl: string): Promise<Footprint> => ({
  serverRssMb: await residentMb(server),
  postgresPssMb: await postgresMb(postmaster),
  parts: await memoryParts(metricsUrl),
});

/** Time from spawning a server on an existing data folder until `GET /api/health` answers 200, in ms. */
export async function startUpMs(base: string, spawnServer: () => ChildProcess): Promise<number> {
  const started = performance.now();
  const child = spawnServer();
  let exitCode: number | null | undefined;
  child.once('exit', (code) => (exitCode = code));
  for (;;) {
    if (exitCode !== undefined) throw new Error(`the server ended with ${exitCode} before answering /api/health`);
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
  return Number(median(took).toFixed(1));
}

/** The longest the hand-over's measurement may take, its echo process's start included. */
const HAND_OVER_LIMIT_MS = 60_000;

/** One byte over `socket` and its echo back, `times` times in a row: the mean time of one, in µs. */
async function meanEchoUs(socket: Socket, times: number, signal: AbortSignal): Promise<number> {
  const byte = Buffer.from('x');
  const started = performance.now();
  for (let i = 0; i < times; i++) {
    const echoed = once(socket, 'data', { signal });
    socket.write(byte);
    await echoed;
  }
  return ((performance.now() - started) * 1000) / times;
}

/**
 * One hand-over between two processes and back, as each statement the server sends PostgreSQL over its Unix socket
 * makes: a byte written to another Node process over a Unix socket and read back, in µs (the median of 5 runs of 4,000
 * in a row, on the idle machine before the load). It is what the password check does not measure: system calls,
 * waking the other process and switching to it, and a turn of each side's event loop.
 */
export async function handOverUs(): Promise<number> {
  const folder = await mkdtemp(path.join(tmpdir(), 'ums-hand-over-'));
  // Whatever ends the measurement early aborts every wait, with an error that says what.
  const ended = new AbortController();
  const end = (why: string) => ended.abort(new Error(why));
  const limit = setTimeout(
    () => end(`the hand-over's measurement took more than ${HAND_OVER_LIMIT_MS / 1000} s`),
    HAND_OVER_LIMIT_MS,
  );
  let echo: ChildProcess | undefined;
  let socket: Socket | undefined;
  try {
    const socketPath = path.join(folder, 'echo');
    echo = spawn(
      process.execPath,
      [
        '-e',
        `require('node:net').createServer((c) => c.on('data', (d) => c.write(d)))` +
          `.listen(${JSON.stringify(socketPath)}, () => process.stdout.write('listening'))`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    echo.once('error', (error) => end(`the echo process could not start: ${error.message}`));
    echo.once('exit', (code, signal) =>
      end(`the echo process ended (${signal ?? `exit ${code}`}) during the hand-over's measurement`),
    );
    await once(echo.stdout!, 'data', { signal: ended.signal });
    socket = connect(socketPath);
    socket.on('error', (error) => end(`the echo's socket failed: ${error.message}`));
    socket.once('close', () => end("the echo's socket closed during the hand-over's measurement"));
    await once(socket, 'connect', { signal: ended.signal });
    await meanEchoUs(socket, 2000, ended.signal);
    const runs: number[] = [];
    for (let run = 0; run < 5; run++) runs.push(await meanEchoUs(socket, 4000, ended.signal));
    return Number(median(runs).toFixed(1));
  } catch (error) {
    throw ended.signal.aborted ? ended.signal.reason : error;
  } finally {
    clearTimeout(limit);
    socket?.destroy();
    // One that never started (no pid) has nothing to stop, and sends no 'exit'.
    if (echo?.pid !== undefined && echo.exitCode === null && echo.signalCode === null) {
      const exited = once(echo, 'exit');
      echo.kill();
      await exited;
    }
    await rm(folder, { recursive: true, force: true });
  }
}
