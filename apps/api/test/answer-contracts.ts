import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { buildApp } from '../src/app.js';

/** The decoration of an app whose answers are checked, for a test to see the check is on. */
export const ANSWERS_CHECKED = 'answersCheckedAgainstContracts';

/** An answer that its route's response schema (its contract) does not describe exactly. */
export class AnswerContractError extends Error {
  override name = 'AnswerContractError';
}

/** The route's response schema for a status: the status itself, else its class (`4xx`), else `default`. */
function responseSchema(schemas: unknown, status: number): z.ZodType | undefined {
  if (!schemas || typeof schemas !== 'object') return undefined;
  const byStatus = schemas as Record<string, unknown>;
  const schema = byStatus[status] ?? byStatus[`${Math.floor(status / 100)}xx`] ?? byStatus['default'];
  return schema instanceof z.ZodType ? schema : undefined;
}

/**
 * What is wrong with `body` as an answer of `schema`, or null when it is one: it must parse, and parsing must keep
 * every field (a zod object drops the fields it does not name, so an answer with a field more differs from its parse).
 */
export function contractViolation(schema: z.ZodType, body: unknown): string | null {
  const parsed = schema.safeParse(body);
  if (!parsed.success) return z.prettifyError(parsed.error);
  const kept: unknown = JSON.parse(JSON.stringify(parsed.data));
  return isDeepStrictEqual(kept, body)
    ? null
    : `fields the contract does not name, or values it changes:\n  answer: ${JSON.stringify(body).slice(0, 2000)}\n  parsed: ${JSON.stringify(kept).slice(0, 2000)}`;
}

/**
 * Checks every JSON answer of `app` against its route's response schema before it leaves: the answers PostgreSQL
 * builds as JSON text (lists, details, the audit trail, the directory) pass no serializer, so this is where the tests
 * hold them to their contracts. An answer that is not its contract fails the request with the reason on stderr.
 */
export function checkAnswersAgainstContracts<App extends FastifyInstance>(app: App): App {
  app.decorate(ANSWERS_CHECKED, true);
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string') return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json')) return payload;
    const schema = responseSchema(request.routeOptions.schema?.response, reply.statusCode);
    if (!schema) return payload;
    const violation = contractViolation(schema, JSON.parse(payload));
    if (violation === null) return payload;
    const message = `${request.method} ${request.url} answered ${reply.statusCode} outside its contract: ${violation}`;
    console.error(message);
    throw new AnswerContractError(message);
  });
  return app;
}

/** `buildApp` whose answers are checked against their contracts (see checkAnswersAgainstContracts). */
export async function checkedApp(options: Parameters<typeof buildApp>[0]) {
  return checkAnswersAgainstContracts(await buildApp(options));
}
