import type { FastifyReply } from 'fastify';

/**
 * Sends an answer PostgreSQL built as JSON text, as it is: Fastify passes a string with a JSON content type through
 * its serializer untouched (the route's response schema documents the shape).
 */
export function sendJsonText(reply: FastifyReply, body: string) {
  return reply.type('application/json; charset=utf-8').send(body);
}
