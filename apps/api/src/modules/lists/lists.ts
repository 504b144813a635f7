import type pg from 'pg';
import { createCatalogCache } from './catalog-cache.js';
import { createListStatements, type AnyListSpec, type ListRequest } from './list-statements.js';

/** List answers: the catalog's through the per-version cache, the members' own straight from the database. */
export function createLists(pool: pg.Pool) {
  const statements = createListStatements(pool);
  const cache = createCatalogCache(pool);
  const requestKey = (spec: AnyListSpec, request: ListRequest, scope: unknown[]) =>
    JSON.stringify([spec.name, request.limit, request.cursor, request.q?.trim() || undefined, request.sort, scope]);

  return {
    cache,
    catalog: (spec: AnyListSpec, request: ListRequest, scope: unknown[] = []) =>
      cache.get(requestKey(spec, request, scope), () => statements.answer(spec, request, scope)),
    member: (spec: AnyListSpec, request: ListRequest, scope: unknown[]) => statements.answer(spec, request, scope),
  };
}

export type Lists = ReturnType<typeof createLists>;
