import path from 'node:path';
import { ConfigError } from './config/env.js';
import { MigrationRefused } from './db/client.js';
import { socketGone } from './db/socket-gone.js';
import { SecretsKeyError } from './secrets/key-service.js';

/** A start that cannot work, already said in words a person can act on. */
export class StartError extends Error {}

interface Failure {
  code?: string;
  errno?: number;
  syscall?: string;
  path?: string;
  address?: string;
  port?: number;
  hostname?: string;
  message?: string;
  cause?: unknown;
  /** The setting whose connection failed, when it is not DATABASE_URL (runtime.ts sets DATABASE_OWNER_URL). */
  variable?: string;
}

/** The error and its causes, outermost first. */
function chain(error: unknown): Failure[] {
  const all: Failure[] = [];
  for (let current = error; current && typeof current === 'object' && all.length < 10;) {
    all.push(current as Failure);
    current = (current as Failure).cause;
  }
  return all;
}

/** A schema upgrade PostgreSQL stopped: nothing of it was kept (one transaction), and what to do about it. */
function migrationSentence(stopped: MigrationRefused): string {
  const undone = 'The database schema could not be upgraded, and nothing in it was changed';
  switch (stopped.kind) {
    case 'timeout':
      return `${undone}, because a step took longer than the server's statement_timeout (${stopped.message}): lift it for the database owner (ALTER ROLE ... SET statement_timeout = 0), then start again.`;
    case 'busy':
      return `${undone}, because PostgreSQL was busy (${stopped.message}): start again.`;
    case 'refused':
      return `${undone}, because PostgreSQL refused a step (${stopped.message}): fix what it names, or restore a backup of this database, then start again.`;
  }
}

/**
 * One plain sentence that names why the server could not start and what to do, for every failure a person can
 * fix; anything else says where to look. Never a stack trace.
 */
export function describeStartFailure(error: unknown, env: NodeJS.ProcessEnv = process.env): string {
  if (error instanceof ConfigError || error instanceof StartError || error instanceof SecretsKeyError) {
    return error.message;
  }
  const causes = chain(error);
  const find = (test: (f: Failure) => boolean) => causes.find(test);
  const usingUrl = Boolean(env['DATABASE_URL']);
  const dataDir = env['DATA_DIR'] ?? '.data';

  const inUse = find((f) => f.code === 'EADDRINUSE');
  if (inUse) {
    const metrics = inUse.port !== undefined && String(inUse.port) === env['METRICS_PORT'];
    return metrics
      ? `Port ${inUse.port} (METRICS_PORT) is already in use: stop the other program or set METRICS_PORT to a free port.`
      : `Port ${env['PORT'] ?? 8080} is already in use: stop the other program or set PORT to a free port.`;
  }
  const fileInTheWay = find((f) => f.code === 'EEXIST' && f.syscall === 'mkdir');
  if (fileInTheWay) {
    const where = fileInTheWay.path ?? dataDir;
    return path.resolve(where) === path.resolve(dataDir)
      ? `DATA_DIR names a file, not a folder (${where}): set DATA_DIR to a folder, or move that file away.`
      : `The data directory holds a file where a folder belongs (${where}): move that file away, or set DATA_DIR to another folder.`;
  }
  const denied = find((f) => f.code === 'EACCES' || f.code === 'EPERM' || f.code === 'EROFS' || f.code === 'ENOTDIR');
  if (denied && !usingUrl) {
    const where = denied.path ?? dataDir;
    return denied.syscall === 'spawn'
      ? `The embedded PostgreSQL could not run ${where}: as root it runs as the user postgres, who must be able to open every folder above the project; move the project to such a folder (such as /opt or /srv) or set DATABASE_URL.`
      : `The data directory cannot be written (${where}): set DATA_DIR to a folder this user can write, or fix its permissions.`;
  }
  const stopped = causes.find((f): f is MigrationRefused => f instanceof MigrationRefused);
  if (stopped) return migrationSentence(stopped);
  if (usingUrl) {
    const url = find((f) => typeof f.variable === 'string')?.variable ?? 'DATABASE_URL';
    if (find((f) => f.code === '28P01' || f.code === '28000')) {
      return `${url} was refused by the PostgreSQL server (wrong user or password): correct the credentials in ${url}.`;
    }
    if (find((f) => f.code === '3D000')) {
      return `The database named in ${url} does not exist: create it (createdb) or correct the name in ${url}.`;
    }
    // host=/a/folder in the URL (or PGHOST), and this user may not open the Unix socket there: its own permissions or
    // its folders'. A Unix socket's address is its path; a TCP connection refused by a firewall has a host and port.
    const socketDenied = find((f) => f.code === 'EACCES' && f.syscall === 'connect' && !!f.address?.startsWith('/'));
    if (socketDenied) {
      return `This user may not open the PostgreSQL socket ${socketDenied.address} that ${url} leads to: give this user access to the socket and the folders above it, or name a host and port in ${url}.`;
    }
    const unreachable = find(
      (f) =>
        ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET'].includes(f.code ?? '') ||
        // host=/a/folder in the URL, and no server listens in that folder.
        socketGone(f),
    );
    if (unreachable || find((f) => /timeout|terminated/i.test(f.message ?? ''))) {
      return `The PostgreSQL server in ${url} cannot be reached: start it or correct the host and port in ${url}.`;
    }
  }
  const first = causes[0]?.message ?? String(error);
  return `The server could not start: ${first.split('\n')[0]} (run with LOG_LEVEL=debug for details).`;
}
