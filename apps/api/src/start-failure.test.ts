import { describe, expect, it } from 'vitest';
import { describeStartFailure } from './start-failure.js';

/** An error as node-postgres gives one when connecting fails, its cause as Node's socket gave it. */
function connectFailure(code: string, address: string) {
  return Object.assign(new Error(`connect ${code} ${address}`), { code, errno: -13, syscall: 'connect', address });
}

describe('a start whose database socket cannot be opened', () => {
  // As root (this test's machine) a socket's permissions are not checked: the error is made as Node makes it.
  it('names the socket and what to do, for DATABASE_URL and DATABASE_OWNER_URL alike', () => {
    const env = { DATABASE_URL: 'postgres://ums@localhost/ums?host=/srv/pg' };
    expect(describeStartFailure(connectFailure('EACCES', '/srv/pg/.s.PGSQL.5432'), env)).toBe(
      "This user may not open the PostgreSQL socket named in DATABASE_URL (/srv/pg/.s.PGSQL.5432): give it access to the socket's folder, or name a host and port in DATABASE_URL.",
    );
    const owner = Object.assign(new Error('The database owner could not connect'), {
      variable: 'DATABASE_OWNER_URL',
      cause: connectFailure('EPERM', '/srv/pg/.s.PGSQL.5432'),
    });
    expect(describeStartFailure(owner, env)).toBe(
      "This user may not open the PostgreSQL socket named in DATABASE_OWNER_URL (/srv/pg/.s.PGSQL.5432): give it access to the socket's folder, or name a host and port in DATABASE_OWNER_URL.",
    );
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
