import { describe, expect, it } from 'vitest';
import { describeStartFailure } from './start-failure.js';

/** An error as node-postgres passes on Node's when a connection is refused by the system (errno -13: EACCES). */
function connectFailure(code: string, errno: number, address: string, port?: number) {
  const where = port === undefined ? address : `${address}:${port}`;
  return Object.assign(new Error(`connect ${code} ${where}`), { code, errno, syscall: 'connect', address, port });
}

const env = { DATABASE_URL: 'postgres://ums@localhost/ums?host=/srv/pg' };

describe('a start whose database connection the system refuses', () => {
  // As root (this test's machine) a socket's permissions are not checked: the error is made as Node makes it.
  it('names a Unix socket this user may not open and what to do, for DATABASE_URL and DATABASE_OWNER_URL alike', () => {
    expect(describeStartFailure(connectFailure('EACCES', -13, '/srv/pg/.s.PGSQL.5432'), env)).toBe(
      'This user may not open the PostgreSQL socket /srv/pg/.s.PGSQL.5432 that DATABASE_URL leads to: give this user access to the socket and the folders above it, or name a host and port in DATABASE_URL.',
    );
    // As runtime.ts wraps the owner's connection.
    const owner = Object.assign(new Error('The database owner could not connect'), {
      variable: 'DATABASE_OWNER_URL',
      cause: connectFailure('EACCES', -13, '/srv/pg/.s.PGSQL.5432'),
    });
    expect(describeStartFailure(owner, env)).toBe(
      'This user may not open the PostgreSQL socket /srv/pg/.s.PGSQL.5432 that DATABASE_OWNER_URL leads to: give this user access to the socket and the folders above it, or name a host and port in DATABASE_OWNER_URL.',
    );
  });

  it('does not call a TCP connection a firewall refused a socket', () => {
    for (const [code, errno] of [
      ['EACCES', -13],
      ['EPERM', -1],
    ] as const) {
      expect(describeStartFailure(connectFailure(code, errno, '10.0.0.5', 5432), env)).not.toContain('socket');
    }
  });

  it('still says a data directory cannot be written when the embedded PostgreSQL is used', () => {
    const denied = Object.assign(new Error('EACCES: permission denied, mkdir'), {
      code: 'EACCES',
      syscall: 'mkdir',
      path: '/readonly/.data',
    });
    expect(describeStartFailure(denied, { DATA_DIR: '/readonly/.data' })).toBe(
      'The data directory cannot be written (/readonly/.data): set DATA_DIR to a folder this user can write, or fix its permissions.',
    );
  });
});
