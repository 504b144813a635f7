import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Sends an answer PostgreSQL built as JSON text, as it is: Fastify passes a string with a JSON content type through
 * its serializer untouched (the route's response schema documents the shape).
 */
export function sendJsonText(reply: FastifyReply, body: string) {
  return reply.type('application/json; charset=utf-8').send(body);
}

/** Answers a file the browser saves under `name`; nothing personal in it may be kept by a cache on the way. */
export function sendFile(reply: FastifyReply, type: string, name: string, body: Readable | string) {
  return reply
    .type(type)
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(body);
}
