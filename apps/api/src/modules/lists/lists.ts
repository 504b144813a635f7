import type pg from 'pg';
import { createCatalogCache } from './catalog-cache.js';
import type { ListName } from '@ums/contracts';
import { createListStatements, type ListRequest, type ListSpec } from './list-statements.js';

/** List answers: the catalog's through the per-version cache, the members' own straight from the database. */
export function createLists(pool: pg.Pool) {
  const statements = createListStatements(pool);
  const cache = createCatalogCache(pool);
  const requestKey = <L extends ListName>(spec: ListSpec<L>, request: ListRequest, scope: unknown[]) =>
    JSON.stringify([spec.name, request.limit, request.cursor, request.q?.trim() || undefined, request.sort, scope]);

  return {
    cache,
    catalog: <L extends ListName>(spec: ListSpec<L>, request: ListRequest, scope: unknown[] = []) =>
      cache.get(requestKey(spec, request, scope), () => statements.answer(spec, request, scope)),
    member: <L extends ListName>(spec: ListSpec<L>, request: ListRequest, scope: unknown[]) =>
      statements.answer(spec, request, scope),
  };
}

export type Lists = ReturnType<typeof createLists>;
