import { errorEnvelopeSchema } from '@ums/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { socketGone } from '../db/socket-gone.js';
import { causes, type Cause } from '../db/sql-state.js';
import { DATABASE_UNAVAILABLE, HttpError } from './http-errors.js';

export interface Failure {
  status: number;
  message: string;
  errors?: Record<string, string[]>;
  data?: unknown[];
  /** Seconds a client should wait before trying again (the database is down: it restarts within seconds). */
  retryAfter?: number;
}

/** PostgreSQL restarts within about a second under the embedded supervisor; a managed one fails over in a few. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;
const databaseDown: Failure = {
  status: 503,
  message: DATABASE_UNAVAILABLE,
  retryAfter: DATABASE_RETRY_AFTER_SECONDS,
};

/** The socket to PostgreSQL failed (Node's codes for a connection refused, reset, broken or timed out). */
const SOCKET_DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
/** SQLSTATE classes of a server that is going away or not reachable: 08 connection exception, 57P0x shutdown/crash. */
const databaseDownCode = (code: string) => SOCKET_DOWN_CODES.has(code) || /^(08...|57P0.)$/.test(code);

function fieldErrors(issues: readonly { instancePath: string; message?: string; params?: unknown }[], context: string) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || context;
    (errors[key] ??= []).push(issue.message ?? 'Invalid value');
  }
  return errors;
}

function postgresFailure(error: { code?: string; constraint?: string; detail?: string }): Failure | null {
  switch (error.code) {
    case '23503':
    case '23001':
      return { status: 409, message: 'That change refers to, or is still referred to by, another record' };
    case '23505':
      return { status: 409, message: 'That record already exists' };
    case '23514':
    case '22003':
    case '22P02':
      return { status: 400, message: 'A value is out of range or not allowed' };
    default:
      return null;
  }
}

/** node-postgres's own words for a connection it lost or could not get (these carry no SQLSTATE code). */
const LOST_CONNECTION = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
];

/**
 * The foreign key a failed statement would have broken, wherever the driver or the ORM wrapped the error: a row that
 * refers to one not there (SQLSTATE 23503), or a row removed that another still refers to under ON DELETE RESTRICT
 * (23001 from PostgreSQL 18 on, 23503 before it). Undefined for any other failure. PostgreSQL cuts a constraint's name
 * to 63 characters.
 */
export function brokenForeignKey(error: unknown): string | undefined {
  const cause = causes(error).find((at) => at.code === '23503' || at.code === '23001') as
    (Cause & { constraint?: unknown }) | undefined;
  return typeof cause?.constraint === 'string' ? cause.constraint : undefined;
}

const lostDatabase = (cause: Cause) =>
  (typeof cause.code === 'string' && databaseDownCode(cause.code)) ||
  // A Unix socket whose file is gone: the PostgreSQL behind it stopped.
  socketGone(cause) ||
  (typeof cause.message === 'string' && LOST_CONNECTION.some((words) => (cause.message as string).includes(words)));

export function toFailure(error: unknown): Failure {
  if (error instanceof HttpError) {
    return {
      status: error.statusCode,
      message: error.message,
      ...(error.errors ? { errors: error.errors } : {}),
      ...(error.data ? { data: error.data } : {}),
      ...(error.statusCode === 503 ? { retryAfter: DATABASE_RETRY_AFTER_SECONDS } : {}),
    };
  }
  const err = error as FastifyError & { code?: string; cause?: { code?: string } };
  if (hasZodFastifySchemaValidationErrors(err)) {
    const errors = fieldErrors(err.validation, err.validationContext ?? 'body');
    const message = Object.entries(errors)
      .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
      .join('. ');
    return { status: 400, message: `Invalid request. ${message}`, errors };
  }
  if (causes(err).some(lostDatabase)) return databaseDown;
  const pgFailure = postgresFailure(
    err.cause && typeof err.cause === 'object' ? (err.cause as { code?: string }) : err,
  );
  if (pgFailure) return pgFailure;
  const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
  if (status === 413) return { status, message: 'The request body is too large' };
  if (status === 415) return { status, message: 'Send the request body as JSON (Content-Type: application/json)' };
  if (status === 400 && err.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
    return { status, message: 'The request body is not valid JSON' };
  if (status === 400 && err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return { status, message: 'The request body is empty; send a JSON body' };
  if (status >= 400 && status < 500) return { status, message: err.message || 'Bad request' };
  return { status: 500, message: 'Something went wrong on our side. Please try again later.' };
}

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/**
 * The specification's error envelope for a failure, with the request's id for support (of a request Fastify made, or
 * of one Node refused before Fastify saw it: `client-errors.ts`).
 */
export function errorEnvelope(request: Pick<FastifyRequest, 'id'>, failure: Failure): ErrorEnvelope {
  return {
    isError: true,
    message: failure.message,
    data: failure.data ?? [],
    ...(failure.errors ? { errors: failure.errors } : {}),
    requestId: request.id,
  };
}

/**
 * The status, headers and body of a failure, the body as JSON text: an error answer never goes through a route's
 * response schemas, so no route can turn it into Fastify's own error (which is what a schema that does not fit, or
 * a second error while answering the first, did). Answers the body for an onSend hook to return.
 */
export function failureAnswer(request: FastifyRequest, reply: FastifyReply, failure: Failure): string {
  reply.status(failure.status).header('content-type', 'application/json; charset=utf-8').removeHeader('content-length');
  // A download that failed after naming its file would otherwise save the envelope as that file.
  reply.removeHeader('content-disposition');
  if (failure.retryAfter !== undefined) reply.header('retry-after', String(failure.retryAfter));
  return JSON.stringify(errorEnvelope(request, failure));
}

/** Any value a route answers with an error status, as the envelope's JSON text (its request id is in the header). */
export function errorEnvelopeText(data: unknown): string {
  const envelope = errorEnvelopeSchema.safeParse(data);
  if (envelope.success) return JSON.stringify(envelope.data);
  const failure = toFailure(data);
  return JSON.stringify({ isError: true, message: failure.message, data: [] } satisfies ErrorEnvelope);
}

/** One error handler: every failure becomes the envelope; 5xx details stay in the log. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const failure = toFailure(error);
    if (failure.status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.send(failureAnswer(request, reply, failure));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.send(
      failureAnswer(request, reply, {
        status: 404,
        message: `No such address: ${request.method} ${request.url.split('?')[0]}`,
      }),
    ),
  );
}
