import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { clientErrorHandler, headersSetBy, type SeenRequest } from './client-errors.js';

/** A connection as the handler sees it, recording what is written on it and whether it was closed. */
function connection() {
  const written: string[] = [];
  const socket = {
    destroyed: false,
    writable: true,
    write: (text: string) => written.push(text),
    destroy: vi.fn(),
  };
  return { socket: socket as unknown as Socket, written, destroy: socket.destroy };
}

const log = { info: () => undefined } as unknown as FastifyBaseLogger;
const refusal = (code: string) =>
  Object.assign(new Error(code), { code, bytesParsed: 0, rawPacket: { type: 'Buffer', data: [] } });
const seenWith = (response: Partial<ServerResponse>, complete = true): SeenRequest => ({
  request: { complete } as IncomingMessage,
  response: response as ServerResponse,
  id: 'the-request-id',
});

describe('answering a request Node refuses to read', () => {
  it('writes nothing into an answer still being sent on the connection, and closes it', () => {
    const { socket, written, destroy } = connection();
    const streaming = seenWith({ headersSent: true, writableFinished: false });
    clientErrorHandler([], () => streaming).call({ log }, refusal('HPE_INVALID_HEADER_TOKEN'), socket);
    expect(written).toEqual([]);
    expect(destroy).toHaveBeenCalledOnce();
  });

  it('answers after a finished answer, with a new id for a request the app never saw', () => {
    const { socket, written } = connection();
    const finished = seenWith({ headersSent: true, writableFinished: true });
    clientErrorHandler([], () => finished).call({ log }, refusal('HPE_INVALID_HEADER_TOKEN'), socket);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(written[0]).not.toContain('the-request-id');
  });

  it('writes nothing on a connection the client reset', () => {
    const { socket, written } = connection();
    clientErrorHandler([], () => undefined).call({ log }, refusal('ECONNRESET'), socket);
    expect(written).toEqual([]);
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

  it('refuses a header value Node would not send', () => {
    expect(() => headersSetBy((_request, response, next) => (response.setHeader('x-bad', 'a\r\nb'), next()))).toThrow();
  });
});
