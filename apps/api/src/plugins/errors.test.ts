import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { DATABASE_RETRY_AFTER_SECONDS, registerErrorHandling, toFailure } from './errors.js';
import { DATABASE_UNAVAILABLE } from './http-errors.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** Drizzle wraps the driver's error, keeping it as the cause. */
const drizzleWrapped = (cause: Error) => new Error('Failed query: select 1\nparams: ', { cause });

describe('toFailure', () => {
  const databaseCauses: [string, Error][] = [
    ['a connection lost mid-statement', new Error('Connection terminated unexpectedly')],
    ['a client whose connection failed', new Error('Client has encountered a connection error and is not queryable')],
    ['a pool that gave no connection in time', new Error('timeout exceeded when trying to connect')],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    [
      "a Unix socket whose server stopped (its file gone, the embedded PostgreSQL's way in)",
      Object.assign(withCode('connect ENOENT /srv/ums/pg/.s.PGSQL.5432', 'ENOENT'), { syscall: 'connect' }),
    ],
    ['an administrator shutdown (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['a crash shutdown (57P02)', withCode('terminating connection due to crash of another server process', '57P02')],
    ['a server starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection failure (08006)', withCode('connection failure', '08006')],
    ['a connection that does not exist (08003)', withCode('connection does not exist', '08003')],
    ['a protocol violation (08P01)', withCode('protocol violation', '08P01')],
    ['a lost connection wrapped by drizzle', drizzleWrapped(new Error('Connection terminated unexpectedly'))],
    ['a shutdown code wrapped by drizzle', drizzleWrapped(withCode('terminating connection', '57P01'))],
  ];
  for (const [cause, error] of databaseCauses) {
    it(`answers 503 with Retry-After for ${cause}`, () => {
      expect(toFailure(error)).toEqual({
        status: 503,
        message: DATABASE_UNAVAILABLE,
        retryAfter: DATABASE_RETRY_AFTER_SECONDS,
      });
    });
  }

  it('answers a bug 500 with a plain message and no Retry-After', () => {
    expect(toFailure(new TypeError("Cannot read properties of undefined (reading 'rows')"))).toEqual({
      status: 500,
      message: 'Something went wrong on our side. Please try again later.',
    });
  });

  it('answers a missing file 500, not 503: only a socket that is gone means the database is', () => {
    const missing = Object.assign(withCode("ENOENT: no such file or directory, open 'receipt.ttf'", 'ENOENT'), {
      syscall: 'open',
    });
    expect(toFailure(missing)).toMatchObject({ status: 500 });
  });

  it('answers a duplicate 409, not 503: the database answered', () => {
    expect(toFailure(drizzleWrapped(withCode('duplicate key value', '23505')))).toMatchObject({ status: 409 });
  });
});

describe('the error handler', () => {
  it('answers the envelope as JSON, not as the download whose headers were set before the failure', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    app.get('/receipt', async (_request, reply) => {
      reply.type('application/pdf').header('content-disposition', 'attachment; filename="receipt.pdf"');
      throw new Error('Connection terminated unexpectedly');
    });
    const response = await app.inject({ url: '/receipt' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-disposition']).toBeUndefined();
    expect(response.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    expect(response.json()).toEqual({
      isError: true,
      message: DATABASE_UNAVAILABLE,
      data: [],
      requestId: expect.any(String),
    });
    await app.close();
  });
});
