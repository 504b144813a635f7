import { LISTS, type ListName } from '@ums/contracts';
import { badRequest } from '../../plugins/http-errors.js';

type KeyType = 'text' | 'int4' | 'int8' | 'numeric' | 'timestamptz';

/** One column of a sort: its SQL expression and the type its cursor value is read back as. */
export interface SortKey {
  expr: string;
  type: KeyType;
}

export const key = (expr: string, type: KeyType): SortKey => ({ expr, type });

/**
 * A list call in SQL. Every sort ends in the row's unique id, so the sort keys order the rows totally and a page
 * continues strictly after the last row of the one before (keyset paging: no OFFSET, no row seen twice).
 */
export interface ListSpec<L extends ListName = ListName> {
  list: L;
  /** Names its prepared statements (unique per spec). */
  name: string;
  /** FROM clause with its joins. */
  from: string;
  /** What every row of the list meets, using $1..$n of the scope values. */
  scope?: string;
  scopeValues: number;
  /**
   * What a search matches. Placeholders, each given only when used: `{pattern}` the ILIKE pattern of the text,
   * `{words}` a tsquery of its words as prefixes ("panel 12" is 'panel':* & '12':*), `{number}` the order number
   * typed as the search ("#12" or "12"), else null.
   */
  search: string;
  /** Per sort field, its keys; `seek` repeats the first keys as a range an index can start from. */
  sorts: Record<(typeof LISTS)[L]['sorts'][number], { keys: SortKey[]; seek?: number }>;
  /** One row as JSON. */
  item: string;
  /** The whole (unsearched) list's size, cheap: a kept count rather than counting rows. */
  total: string;
}

/** A spec of any one list. */
export type AnyListSpec = { [L in ListName]: ListSpec<L> }[ListName];

export interface ListRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
  q?: string | undefined;
  sort?: string | undefined;
}

const base64url = (text: string) =>
  `rtrim(translate(encode(convert_to(${text}, 'UTF8'), 'base64'), E'+/\\n', '-_'), '=')`;

const CURSOR_ERROR = { cursor: ['Must be the nextCursor of a previous page with the same sort'] };
const VALUE_PATTERNS: Record<KeyType, RegExp> = {
  text: /^[\s\S]*$/,
  int4: /^-?\d{1,10}$/,
  int8: /^-?\d{1,19}$/,
  numeric: /^-?\d{1,12}(\.\d{1,6})?$/,
  timestamptz: /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/,
};

/** The cursor's sort key values, checked against the list and sort they were given out for. */
function decodeCursor(cursor: string, listAndSort: string, keys: SortKey[]): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('The cursor is not one this list gave out', CURSOR_ERROR);
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== keys.length + 1 ||
    parsed[0] !== listAndSort ||
    !parsed.slice(1).every((value, i) => typeof value === 'string' && VALUE_PATTERNS[keys[i]!.type].test(value))
  ) {
    throw badRequest('The cursor is not one this list gave out', CURSOR_ERROR);
  }
  return parsed.slice(1) as string[];
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');
/** "#1234" or "1234" also finds that order number. */
const typedNumber = (q: string) => {
  const match = /^#?(\d{1,9})$/.exec(q);
  return match ? Number(match[1]) : null;
};

const SEARCH_SQL = {
  pattern: (param: string) => param,
  words: (param: string) =>
    `to_tsquery('simple', (select string_agg(quote_literal(w) || ':*', ' & ')
                           from unnest(tsvector_to_array(to_tsvector('simple', ${param}::text))) w))`,
  number: (param: string) => `${param}::int4`,
};
const SEARCH_VALUE: Record<keyof typeof SEARCH_SQL, (q: string) => unknown> = {
  pattern: (q) => `%${escapeLike(q)}%`,
  words: (q) => q,
  number: typedNumber,
};
/** The search placeholders a spec uses, in the order their values are sent. */
const searchPlaceholders = (spec: AnyListSpec) =>
  (Object.keys(SEARCH_SQL) as (keyof typeof SEARCH_SQL)[]).filter((p) => spec.search.includes(`{${p}}`));

interface Variant {
  field: string;
  descending: boolean;
  cursor: boolean;
  search: boolean;
  /** Rows per page (1-100, checked by the query schema), or null for the whole list. */
  limit: number | null;
  /** One row per item (its JSON text) instead of one envelope: for streaming the whole list (CSV export). */
  rows?: boolean;
}

/** The statement of one variant of a list: PostgreSQL answers the whole envelope as JSON text. */
function statementText(spec: AnyListSpec, v: Variant): string {
  const { keys, seek } = (spec.sorts as Record<string, { keys: SortKey[]; seek?: number }>)[v.field]!;
  let n = spec.scopeValues;
  const next = () => `$${++n}`;
  const where: string[] = spec.scope ? [spec.scope] : [];
  let searchWhere = '';
  if (v.search) {
    searchWhere = `(${spec.search})`;
    for (const placeholder of searchPlaceholders(spec)) {
      searchWhere = searchWhere.replaceAll(`{${placeholder}}`, SEARCH_SQL[placeholder](next()));
    }
    where.push(searchWhere);
  }
  if (v.cursor) {
    const values = keys.map((k) => `${next()}::${k.type}`);
    const op = v.descending ? '<' : '>';
    const tuple = (list: string[]) => `(${list.join(', ')})`;
    where.push(`${tuple(keys.map((k) => k.expr))} ${op} ${tuple(values)}`);
    if (seek) where.push(`${tuple(keys.slice(0, seek).map((k) => k.expr))} ${op}= ${tuple(values.slice(0, seek))}`);
  }
  const orderBy = keys.map((k) => `${k.expr}${v.descending ? ' desc' : ''}`).join(', ');
  if (v.rows) {
    return `select (${spec.item})::text as item from ${spec.from}
      ${where.length > 0 ? `where ${where.join(' and ')}` : ''}
      order by ${orderBy}`;
  }
  // The page size is part of the statement, not a parameter: a generic plan then knows it reads a few rows and walks
  // the sort's index instead of sorting the whole join.
  const limit = v.limit === null ? '' : String(Math.trunc(v.limit));
  // A searched first page counts its matches in the same scan (one trigram search instead of two); later pages
  // start after the cursor, so they count the whole filtered list on their own.
  const countMatches = v.search && v.limit !== null && !v.cursor;
  const page = `
    with page as (
      select ${spec.item} as item, row_number() over (order by ${orderBy}) as n,
             ${keys.map((k, i) => `${k.expr} as k${i}`).join(', ')}${countMatches ? ', count(*) over () as matches' : ''}
      from ${spec.from}
      ${where.length > 0 ? `where ${where.join(' and ')}` : ''}
      order by ${orderBy}
      ${v.limit === null ? '' : `limit ${limit} + 1`}
    )`;
  if (v.limit === null) {
    return `${page}
      select json_build_object('isError', false, 'message', '', 'data', coalesce(json_agg(item order by n), '[]'::json))::text as body
      from page`;
  }
  const cursorFor = `${spec.name} ${v.descending ? '-' : ''}${v.field}`;
  const cursor = base64url(`json_build_array('${cursorFor}', ${keys.map((_, i) => `k${i}::text`).join(', ')})::text`);
  const scopeWhere = [spec.scope, searchWhere].filter(Boolean).join(' and ');
  const total = countMatches
    ? 'coalesce((select max(matches) from page), 0)'
    : v.search
      ? `(select count(*) from ${spec.from} where ${scopeWhere})`
      : spec.total;
  return `${page}
    select json_build_object(
      'isError', false, 'message', '',
      'data', coalesce((select json_agg(item order by n) from page where n <= ${limit}), '[]'::json),
      'page', json_build_object(
        'nextCursor', (select ${cursor} from page where n = ${limit} and exists (select 1 from page where n > ${limit})),
        'total', ${total})
    )::text as body`;
}

/** Statement texts by name: each variant is written once per process. */
const texts = new Map<string, string>();

/**
 * The named statement and values answering one list request; `scope` fills the spec's $1..$n. With `rows`, the
 * statement answers the whole filtered, sorted list one item per row (its JSON text), for streaming.
 */
export function listStatement(spec: AnyListSpec, request: ListRequest, scope: unknown[] = [], rows = false) {
  const sort = request.sort ?? LISTS[spec.list].defaultSort;
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  const keys = (spec.sorts as Record<string, { keys: SortKey[] }>)[field]!.keys;
  const q = request.q?.trim() ? request.q.trim() : undefined;
  if (!rows && request.cursor !== undefined && request.limit === undefined) {
    throw badRequest('A cursor continues a page: give limit too', { cursor: ['Needs limit'] });
  }
  const values: unknown[] = [...scope];
  if (q !== undefined) for (const placeholder of searchPlaceholders(spec)) values.push(SEARCH_VALUE[placeholder](q));
  if (!rows && request.cursor !== undefined) {
    values.push(...decodeCursor(request.cursor, `${spec.name} ${sort}`, keys));
  }
  // The whole filtered list, a row per item, for an export: paging does not apply.
  const variant: Variant = {
    field,
    descending,
    cursor: !rows && request.cursor !== undefined,
    search: q !== undefined,
    limit: rows ? null : (request.limit ?? null),
    rows,
  };
  const flags = `${variant.rows ? 'r' : ''}${variant.cursor ? 'c' : ''}${variant.search ? 's' : ''}${variant.limit === null ? '' : `l${variant.limit}`}`;
  const name = `list_${spec.name}_${field}_${descending ? 'd' : 'a'}${flags}`;
  let text = texts.get(name);
  if (!text) {
    text = statementText(spec, variant);
    texts.set(name, text);
  }
  return { name, text, values };
}
