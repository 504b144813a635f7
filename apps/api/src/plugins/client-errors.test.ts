import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { clientErrorAnswer, clientErrorHandler, headersSetBy } from './client-errors.js';

/** A connection as the handler sees it, writing `writing` now, recording what is written on it and its closing. */
function connection(writing: Partial<ServerResponse> | null = null) {
  const written: string[] = [];
  const socket = {
    destroyed: false,
    writable: true,
    _httpMessage: writing,
    write: (text: string) => written.push(text),
    destroy: vi.fn(),
  };
  return { socket: socket as unknown as Socket, written, destroy: socket.destroy };
}

const log = { info: () => undefined } as unknown as FastifyBaseLogger;
const refusal = (code: string) =>
  Object.assign(new Error(code), { code, bytesParsed: 0, rawPacket: { type: 'Buffer', data: [] } });
/** The answer to the last request the app saw on the connection, that request whole or not. */
const seen = (requestWhole: boolean) =>
  ({
    req: { complete: requestWhole } as IncomingMessage,
    getHeader: (name: string) => (name === 'x-request-id' ? 'the-seen-request-id' : undefined),
  }) as unknown as ServerResponse;

describe('answering a request Node refuses to read', () => {
  it('writes nothing into an answer still being sent on the connection, though the app has since begun a later one, and closes it', () => {
    const { socket, written, destroy } = connection({ headersSent: true, writableFinished: false });
    clientErrorHandler([], () => seen(true)).call({ log }, refusal('HPE_INVALID_HEADER_TOKEN'), socket);
    expect(written).toEqual([]);
    expect(destroy).toHaveBeenCalledOnce();
  });

  it('answers a request the app never saw with an id of its own', () => {
    const { socket, written, destroy } = connection();
    clientErrorHandler([], () => seen(true)).call({ log }, refusal('HPE_INVALID_HEADER_TOKEN'), socket);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(written[0]).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/);
    expect(destroy).toHaveBeenCalledOnce();
  });

  it('answers a seen request whose body stopped coming with its own id', () => {
    const { socket, written } = connection();
    clientErrorHandler([], () => seen(false)).call({ log }, refusal('ERR_HTTP_REQUEST_TIMEOUT'), socket);
    expect(written[0]).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(written[0]).toContain('\r\nx-request-id: the-seen-request-id\r\n');
  });

  it('writes nothing on a connection the client reset', () => {
    const { socket, written } = connection();
    clientErrorHandler([], () => undefined).call({ log }, refusal('ECONNRESET'), socket);
    expect(written).toEqual([]);
  });

  it('answers chunk extensions over Node’s limit with 413, as Node itself would', () => {
    const answer = clientErrorAnswer('HPE_CHUNK_EXTENSIONS_OVERFLOW', [], 'an-id');
    expect(answer).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(answer).toContain('"message":"The request’s chunk extensions are too large"');
  });
});

describe('the security headers read from a middleware', () => {
  it('refuses a middleware that does not finish at once, or fails, rather than answering without its headers', () => {
    expect(() => headersSetBy(() => undefined)).toThrow(
      'The security headers middleware did not finish at once: its headers cannot be read',
    );
    expect(() => headersSetBy((_request, _response, next) => next(new Error('bad option')))).toThrow(
      'The security headers middleware failed',
    );
  });

  it('refuses a header name or value Node would not send', () => {
    expect(() => headersSetBy((_request, response, next) => (response.setHeader('bad name', 'x'), next()))).toThrow(
      /Header name must be a valid HTTP token/,
    );
    expect(() => headersSetBy((_request, response, next) => (response.setHeader('x-bad', 'a\r\nb'), next()))).toThrow(
      /Invalid character in header content/,
    );
  });
});
