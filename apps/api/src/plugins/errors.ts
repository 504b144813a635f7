import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DATABASE_UNAVAILABLE, HttpError } from './http-errors.js';

interface Failure {
  status: number;
  message: string;
  errors?: Record<string, string[]>;
  data?: unknown[];
}

const DATABASE_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08001',
  '08003',
]);

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

export function toFailure(error: unknown): Failure {
  if (error instanceof HttpError) {
    return {
      status: error.statusCode,
      message: error.message,
      ...(error.errors ? { errors: error.errors } : {}),
      ...(error.data ? { data: error.data } : {}),
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
  const code = err.code ?? err.cause?.code;
  if (code && DATABASE_DOWN_CODES.has(code)) {
    return { status: 503, message: DATABASE_UNAVAILABLE };
  }
  if (
    err.message?.includes('timeout exceeded when trying to connect') ||
    err.message?.includes('Connection terminated')
  ) {
    return { status: 503, message: DATABASE_UNAVAILABLE };
  }
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

/** One error handler: every failure becomes the envelope; 5xx details stay in the log. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const failure = toFailure(error);
    if (failure.status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.status(failure.status).send({
      isError: true,
      message: failure.message,
      data: failure.data ?? [],
      ...(failure.errors ? { errors: failure.errors } : {}),
      requestId: request.id,
    });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      isError: true,
      message: `No such address: ${request.method} ${request.url.split('?')[0]}`,
      data: [],
      requestId: request.id,
    }),
  );
}
