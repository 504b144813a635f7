import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { errorEnvelope } from './errors.js';

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
  const body = JSON.stringify(errorEnvelope({ id: requestId }, { status, message: CLIENT_ERROR_MESSAGES[status] }));
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

/**
 * Fastify's `clientErrorHandler`: answers a refused request as above, unless its connection is gone or is in the
 * middle of sending an answer. Its bytes would land inside that answer: with pipelining, an earlier request's answer
 * can still be streaming while a later one is refused. Node's own handler holds back the same way, and reads the same
 * field: the answer the connection is writing now. A request the app had already seen (`lastSeen`, the last answer it
 * began on the connection), whose body then stopped coming, keeps its id. The 408, the request's log lines and a 401
 * answered before its body then all name the same one.
 */
export function clientErrorHandler(
  securityHeaders: [string, string][],
  lastSeen: (socket: Socket) => ServerResponse | undefined,
): NonNullable<FastifyServerOptions['clientErrorHandler']> {
  return function answerClientError(this: { log: FastifyBaseLogger }, error, socket: Socket) {
    // A connection reset by the client has nothing left to answer (Node's and Fastify's own handlers do the same).
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const seen = lastSeen(socket);
    const seenId = seen && !seen.req.complete ? seen.getHeader('x-request-id') : undefined;
    const reqId = typeof seenId === 'string' ? seenId : randomUUID();
    this.log.info({ reqId, err: error }, 'refused a request that did not arrive whole or could not be read');
    // Node's own record of the answer being written on the connection (`_httpMessage`, which its default handler
    // reads for the same reason); nothing public says so.
    const writing = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    const answering = writing?.headersSent === true && !writing.writableFinished;
    if (socket.writable && !answering) socket.write(clientErrorAnswer(error.code, securityHeaders, reqId));
    socket.destroy(error);
  };
}
