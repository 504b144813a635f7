import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { ErrorEnvelope } from './errors.js';

/**
 * What the envelope says of a request that did not arrive whole or could not be read, by the status it is answered
 * with. Node refuses these itself, in its HTTP parser: a request not whole within REQUEST_TIMEOUT, headers or chunk
 * extensions over its size limits, and bytes that are not HTTP it can parse (a bad request line, a header with a
 * forbidden character, a broken chunked body).
 */
export const CLIENT_ERROR_MESSAGES = {
  408: 'The request did not arrive whole within the time allowed',
  413: 'The request’s chunk extensions are too large',
  431: 'The request headers are too large',
  400: 'The request is malformed: it is not HTTP this server can read',
} as const;

type Middleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The headers a middleware sets on every answer, read once by running it on a stand-in answer: the security headers
 * of helmet's fixed options, which need neither the request nor a nonce. They are checked as Node checks a header,
 * since they are written on the connection as they are.
 */
export function headersSetBy(middleware: Middleware): [string, string][] {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      const text = Array.isArray(value) ? value.join(', ') : String(value);
      http.validateHeaderName(name);
      http.validateHeaderValue(name, text);
      headers.set(name.toLowerCase(), text);
      return response;
    },
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  let done: { error: unknown } | undefined;
  middleware({ headers: {} } as IncomingMessage, response as unknown as ServerResponse, (error) => (done = { error }));
  if (!done) throw new Error('The security headers middleware did not finish at once: its headers cannot be read');
  if (done.error) throw new Error('The security headers middleware failed', { cause: done.error });
  return [...headers];
}

/** The status of Node's refusal, as Node itself would answer it. */
function statusOf(code: string): keyof typeof CLIENT_ERROR_MESSAGES {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

/**
 * The raw answer to a request Node refused: the envelope, with the security headers, `no-store` and a request id as
 * every other answer has them (Fastify's own handler sent its JSON with none of them). The connection closes after it.
 */
export function clientErrorAnswer(code: string, securityHeaders: [string, string][], requestId: string): string {
  const status = statusOf(code);
  const body = JSON.stringify({
    isError: true,
    message: CLIENT_ERROR_MESSAGES[status],
    data: [],
    requestId,
  } satisfies ErrorEnvelope);
  const headers: [string, string][] = [
    ...securityHeaders,
    ['cache-control', 'no-store'],
    ['x-request-id', requestId],
    ['content-type', 'application/json; charset=utf-8'],
    ['content-length', String(Buffer.byteLength(body))],
    ['connection', 'close'],
  ];
  const head = headers.map(([name, value]) => `${name}: ${value}`).join('\r\n');
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${head}\r\n\r\n${body}`;
}

/** The request a connection last carried that the app saw, its answer and its id (recorded as each request comes). */
export interface SeenRequest {
  request: IncomingMessage;
  response: ServerResponse;
  id: string;
}

/**
 * Fastify's `clientErrorHandler`: answers a refused request as above, unless its connection is gone or is in the
 * middle of sending another answer (a pipelined request's bytes would land inside it; Node's own handler holds back
 * the same way). A request the app had already seen, whose body then stopped coming, keeps its id: the 408 and the
 * request's log lines (and a 401 answered before its body) name the same one.
 */
export function clientErrorHandler(
  securityHeaders: [string, string][],
  seen: (socket: Socket) => SeenRequest | undefined,
): NonNullable<FastifyServerOptions['clientErrorHandler']> {
  return function answerClientError(this: { log: FastifyBaseLogger }, error, socket: Socket) {
    // A connection reset by the client has nothing left to answer (Node's and Fastify's own handlers do the same).
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const last = seen(socket);
    const unfinished = last && !last.request.complete ? last : undefined;
    const reqId = unfinished?.id ?? randomUUID();
    this.log.info({ reqId, err: error }, 'refused a request that did not arrive whole or could not be read');
    const answering = last !== undefined && last.response.headersSent && !last.response.writableFinished;
    if (socket.writable && !answering) socket.write(clientErrorAnswer(error.code, securityHeaders, reqId));
    socket.destroy(error);
  };
}
