import type { FastifyReply } from 'fastify';
import type pg from 'pg';
import { csvFileName, streamCsv } from './csv.js';
import { sendFile, sendJsonText } from './json-text.js';
import { listAnswer, listStatement, type AnyListDefinition, type ListRequest } from './list-statements.js';
import { createVersionCache, dataVersion, memberVersion, type VersionCache } from './version-cache.js';
import type { MemoryBudget } from '../../lib/bounded-cache.js';

/** A CSV export's file name (before its date) and columns (the API's field names). */
export interface CsvFile {
  name: string;
  fields: readonly string[];
  /** Fields written as their JSON whatever their shape (a change's before and after), not summarised by name. */
  jsonFields?: readonly string[];
}

/**
 * List answers from one named prepared statement per variant (sort, direction, cursor, search, page size), and a
 * second for a large list's search that matched more than it counts (`listAnswer`, decision 053): the database plans
 * each once per connection and writes the JSON; the catalog's, the audit trail's, the member
 * directory's and each member's orders and subscriptions go through their per-version caches.
 */
export function createLists(pool: pg.Pool, budget?: MemoryBudget) {
  const cache = createVersionCache(pool, dataVersion('catalog'), { name: 'catalog', budget });
  const auditCache = createVersionCache(pool, dataVersion('audit'), { name: 'audit', budget });
  // Members' answers are small and many: a smaller share of memory, the least recently read member first out.
  const memberCache = createVersionCache(pool, memberVersion, {
    name: 'member-lists',
    maxBytes: 32 * 1024 * 1024,
    budget,
  });
  /** The answer's JSON text, and whether its page holds no item (the statement says so beside the text). */
  const answer = (statement: ReturnType<typeof listStatement>) => listAnswer(pool, statement);
  const run = async (statement: ReturnType<typeof listStatement>) => (await answer(statement)).body;

  const cached =
    (versions: VersionCache) =>
    (
      spec: AnyListDefinition,
      request: ListRequest,
      scope: unknown[] = [],
      check?: (answer: { empty: boolean }) => Promise<void>,
    ) => {
      // The statement's name and values say everything the answer depends on: they are its key.
      const statement = listStatement(spec, request, scope);
      // `check` runs when the answer is built, on the same data version when it is kept: an answer it refuses (by
      // throwing) is not kept, one it lets through is served from memory with no second look.
      const build = async () => {
        const { body, empty } = await answer(statement);
        await check?.({ empty });
        return body;
      };
      return versions.get(JSON.stringify([statement.name, statement.values]), build, scope.map(String), {
        keptFromSecondAsk: Boolean(request.q?.trim()),
      });
    };
  const catalog = cached(cache);
  const memberLists = cached(memberCache);

  /** The whole filtered, sorted list as a CSV download (`?format=csv`), streamed: its columns are `file.fields`. */
  const csv = (
    reply: FastifyReply,
    spec: AnyListDefinition,
    request: ListRequest,
    file: CsvFile,
    scope: unknown[] = [],
  ) => sendFile(reply, 'text/csv; charset=utf-8', csvFileName(file.name), streamCsv(pool, spec, request, file, scope));

  return {
    cache,
    catalog,
    audit: cached(auditCache),
    directory: cached(createVersionCache(pool, dataVersion('members'), { name: 'directory', budget })),
    /**
     * One member's ([subject]) payment history or subscriptions: only lists whose every row is a member's order,
     * order item, subscription or subscription product (what moves the member's version), plus catalog names.
     */
    member: (spec: AnyListDefinition, request: ListRequest, subject: [string]) => memberLists(spec, request, subject),
    /** A list read from the database on every request (the member's own security events change at every sign-in). */
    fresh: (spec: AnyListDefinition, request: ListRequest, scope: unknown[]) =>
      run(listStatement(spec, request, scope)),
    csv,
    /** An admin catalog list call: the JSON answer (cached per catalog version), or with `format=csv` the file. */
    catalogOrCsv: async (
      reply: FastifyReply,
      spec: AnyListDefinition,
      request: ListRequest & { format?: 'csv' | undefined },
      file: CsvFile,
    ) =>
      request.format === 'csv' ? csv(reply, spec, request, file) : sendJsonText(reply, await catalog(spec, request)),
  };
}

export type Lists = ReturnType<typeof createLists>;
