import { LISTS, SEARCH_COUNT_LIMIT, type ListName, type ListSortField } from '@ums/contracts';
import { Column, fillPlaceholders, is, sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { PgDialect, PgTimestamp, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { z } from 'zod';
import { DIGIT_LEXEME_MAX, DIGIT_RUN_MIN, searchDigitRuns } from '../../db/schema/search.js';
import { badRequest } from '../../plugins/http-errors.js';

// ---- Typed SQL for the lists: JSON items and sort keys from drizzle columns -------------------------------------

/** A column whose value, or nothing where it may be null, is a `V`. */
type ColumnOf<V> = AnyColumn & {
  readonly _: { readonly data: NonNullable<V>; readonly notNull: null extends V ? boolean : true };
};
/** What a JSON field may be built from: a column holding its type, or a typed fragment (`sql<T>`). */
export type JsonValue<V> = SQL<V> | ColumnOf<V>;
/** Every field of an item type `T`, each built from a column or fragment of its type: no more, no fewer. */
export type JsonFields<T> = { [K in keyof T]-?: JsonValue<T[K]> };

/** A constant of the code (never a request's value) as an SQL string literal, so plans can use it. */
export const literal = (text: string) => sql.raw(`'${text.replaceAll("'", "''")}'`);

/**
 * `json_build_object(...)` of one item: the keys are the contract's (`T`, e.g. `z.infer<typeof membershipSchema>`),
 * so a renamed or missing field, a renamed column or a column of another type fails to compile.
 */
export function jsonObject<T>(fields: JsonFields<T>): SQL<T> {
  const pairs = Object.entries<SQLWrapper>(fields as Record<string, SQLWrapper>).map(
    ([name, value]) => sql`${literal(name)}, ${value}`,
  );
  return sql<T>`json_build_object(${sql.join(pairs, sql`, `)})`;
}

type NullableIf<C extends AnyColumn, V> = C['_']['notNull'] extends true ? V : V | null;

/** A money or other numeric column as a JSON number. */
export const float8 = <C extends AnyColumn<{ dataType: 'string'; columnType: 'PgNumeric' }>>(column: C) =>
  sql<NullableIf<C, number>>`${column}::float8`;

/** A timestamp as the ISO 8601 text the API answers (UTC, milliseconds). */
export const isoTime = <C extends AnyColumn<{ columnType: 'PgTimestamp' }>>(column: C) =>
  sql<NullableIf<C, string>>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A timestamp as PostgreSQL's JSON writes it (ISO 8601, microseconds, the session's offset): what is held about a
 * member (support's page, the data export) has always been given this way.
 */
export const jsonTime = <C extends AnyColumn<{ columnType: 'PgTimestamp' }>>(column: C) =>
  sql<NullableIf<C, string>>`${column}`;

/** `table alias` for a FROM clause, the alias being the one `alias(table, name)` gave its columns. */
export const tableAs = (table: PgTable, name: string) => sql`${table} ${sql.identifier(name)}`;

/**
 * A column by its bare name, where a reference would carry its table: an insert's column list, an update's SET, a
 * conflict target.
 */
export const columnName = (column: AnyColumn) => sql.identifier(column.name);

// ---- Sort keys and cursors --------------------------------------------------------------------------------------

type KeyType = 'text' | 'int4' | 'int8' | 'numeric' | 'timestamptz';

/**
 * A cursor value as PostgreSQL's JSON writes each key type (`json_build_array` of the keys), read back by that
 * type: a cursor whose values were tampered with is refused here, never sent to the database.
 */
const CURSOR_VALUES: Record<KeyType, z.ZodType<string | number>> = {
  text: z.string(),
  int4: z
    .number()
    .int()
    .min(-(2 ** 31))
    .max(2 ** 31 - 1),
  int8: z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  numeric: z.number(),
  timestamptz: z.iso.datetime({ offset: true }),
};

/** The key type of each column type a list sorts by. */
const COLUMN_KEY_TYPES = {
  PgText: 'text',
  PgInteger: 'int4',
  PgBigInt53: 'int8',
  PgNumeric: 'numeric',
  PgTimestamp: 'timestamptz',
} as const satisfies Record<string, KeyType>;
type KeyColumn = AnyPgColumn<{ columnType: keyof typeof COLUMN_KEY_TYPES }>;

/** One column of a sort: its SQL and the type its cursor value is read back as. */
export interface SortKey {
  expr: SQL | AnyColumn;
  type: KeyType;
}

/** A sort key: a column (its cursor type follows the column's), or an expression and its type. */
export function key(column: KeyColumn): SortKey;
export function key(expr: SQL, type: KeyType): SortKey;
export function key(expr: KeyColumn | SQL, type?: KeyType): SortKey {
  if (is(expr, Column)) {
    if (is(expr, PgTimestamp) && !expr.withTimezone) throw new Error(`${expr.name}: sort keys are timestamptz`);
    return { expr, type: COLUMN_KEY_TYPES[expr.columnType as keyof typeof COLUMN_KEY_TYPES] };
  }
  return { expr, type: type! };
}

/** The scope's value `index` (0-based) of `listStatement(…, scope)`: the list's owner or filter. */
export const scopeValue = (index: number) => sql.placeholder(`scope${index}`);

/**
 * What a search's text is offered as: `contains(text)` whether the text holds the search as typed, case-insensitively
 * (ILIKE '%search%'), the way every list searches its texts; `words` a tsquery of its words as prefixes ("panel 12" is
 * 'panel':* & '12':*); `number` the order number typed as the search ("#12" or "12"), else null. Only the values a
 * list's search uses are sent.
 */
export interface SearchTerms {
  contains: (text: SQLWrapper) => SQL;
  words: SQL;
  number: SQL;
}
/** Whether the rows' text holds the search as typed: ILIKE's match, for the check after an index found the rows. */
const holdsTyped = (text: SQLWrapper) => sql`strpos(lower(${text}), lower(${sql.placeholder('typed')}::text)) > 0`;
const words = sql`to_tsquery('simple', (select string_agg(quote_literal(w) || ':*', ' & ')
                           from unnest(tsvector_to_array(to_tsvector('simple', ${sql.placeholder('words')}::text))) w))`;
const number = sql`${sql.placeholder('number')}::int4`;
const SEARCH_TERMS: SearchTerms = {
  // The trigram index is given `indexedPart` of the search (its numbered word, or the whole search), and every row it
  // finds is held to the whole search. strpos of the lower-cased texts is what ILIKE '%search%' matches: in a multibyte
  // database ILIKE lower-cases both sides and compares bytes, and the columns searched have the database's collation,
  // which lower() of the search uses too. No index answers strpos, so the planner keeps it as the rows' filter rather
  // than adding the whole search's trigrams to the index scan.
  contains: (text) => sql`(${text} ilike ${sql.placeholder('pattern')} and ${holdsTyped(text)})`,
  words,
  number,
};
/**
 * A search holding `DIGIT_RUN_MIN` digits or more in a row, in a list whose texts have a `search_digit_runs` index
 * (decision 047): the index finds the rows whose runs of digits hold the search's longest, then they are held to the
 * whole search. Every row holding the search holds that run (lower() changes no digit), inside a run of its own.
 */
const DIGIT_SEARCH_TERMS: SearchTerms = {
  contains: (text) => sql`(${searchDigitRuns(text)} @@ ${sql.placeholder('digits')}::tsquery and ${holdsTyped(text)})`,
  words,
  number,
};
/**
 * A search of a page walked in the sort's order (decision 053): `contains` is the match alone, so that no index of the
 * search is there to choose over the sort's. The lists walked search by `contains` only; `words` and `number` are
 * indexed, and a list searching by them would give the planner that choice again.
 */
const WALK_SEARCH_TERMS: SearchTerms = { contains: holdsTyped, words, number };

/**
 * A list call in SQL, from drizzle columns. Every sort ends in the row's unique id, so the sort keys order the rows
 * totally and a page continues strictly after the last row of the one before (keyset paging: no OFFSET, no row seen
 * twice).
 */
export interface ListDefinition<L extends ListName = ListName> {
  list: L;
  /** Names its prepared statements (unique per definition). */
  name: string;
  /** FROM clause with its joins. */
  from: SQL;
  /** What every row of the list meets, using `scopeValue(i)`. */
  scope?: SQL;
  /** What a search matches. */
  search: (terms: SearchTerms) => SQL;
  /** Per sort field, its keys; `seek` repeats the first keys as a range an index can start from. */
  sorts: Record<ListSortField<L>, { keys: SortKey[]; seek?: number }>;
  /** One row as JSON: a `jsonObject` of the list's contract item. */
  item: SQL;
  /**
   * The whole (unsearched) list's size, cheap: a kept count rather than counting rows. A list with
   * `searchCountCapped` and a scope counts the scope's rows up to `SEARCH_COUNT_LIMIT` instead.
   */
  total: SQL;
  /**
   * Every text the search gives `contains` has a `search_digit_runs` index (migration 0026): a search holding
   * `DIGIT_RUN_MIN` digits or more in a row is looked up there rather than by trigrams (decision 047).
   */
  digitRunsIndexed?: boolean;
  /**
   * The list is large (a million rows): a searched page counts its matches up to `SEARCH_COUNT_LIMIT` and, past it,
   * walks the sort's index for its rows instead of sorting every match; a scoped page counts its scope the same way
   * (decision 053).
   */
  searchCountCapped?: boolean;
}

/** A definition of any one list. */
export type AnyListDefinition = { [L in ListName]: ListDefinition<L> }[ListName];

// ---- Statements -------------------------------------------------------------------------------------------------

export interface ListRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
  q?: string | undefined;
  sort?: string | undefined;
}

const base64url = (text: SQL) =>
  sql`rtrim(translate(encode(convert_to(${text}, 'UTF8'), 'base64'), E'+/\\n', '-_'), '=')`;

const CURSOR_ERROR = { cursor: ['Must be the nextCursor of a previous page with the same sort'] };

/** The cursor's sort key values, checked against the list and sort they were given out for and read by type. */
function decodeCursor(cursor: string, listAndSort: string, keys: SortKey[]): (string | number)[] {
  const schema = z.tuple([z.literal(listAndSort), ...keys.map((k) => CURSOR_VALUES[k.type])]);
  let parsed: ReturnType<typeof schema.safeParse>;
  try {
    parsed = schema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw badRequest('The cursor is not one this list gave out', CURSOR_ERROR);
  }
  if (!parsed.success) throw badRequest('The cursor is not one this list gave out', CURSOR_ERROR);
  return parsed.data.slice(1) as (string | number)[];
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');
/** The longest of `words`, the first of equal ones; null when there is none. */
const longestOf = (words: readonly string[]) =>
  words.reduce<string | null>((a, b) => (a && a.length >= b.length ? a : b), null);
/**
 * The ILIKE pattern a trigram index searches for `q` (decision 046): the longest word of the search that holds a digit
 * and has at least 4 characters (the first of equal ones), else the whole search. Words here are runs of letters and
 * digits, about what pg_trgm makes trigrams of. A GIN trigram scan walks, for every row holding the search's rarest
 * trigram, the posting lists of all its other trigrams, and the words beside a numbered one ("member", "entity",
 * "gmail", "com") are often in most rows: at 1,000,000 accounts "number 123457" took 23 ms where "123457" alone took
 * 0.5 ms. A word with a number in it (a member number, an id, "jsmith1985") is seldom that common, and keeps all its
 * own trigrams; a shorter one ("163", "12") has too few to find few rows. The rows found are then held to the whole
 * search. A word is only taken while the search lower-cased still holds it lower-cased (a Greek final sigma is
 * lower-cased by what follows it), so every row holding the search holds the pattern.
 */
export const indexedPart = (q: string): string => {
  const lowered = q.toLowerCase();
  const numbered = (q.match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (word) => [...word].length >= 4 && /[0-9]/.test(word) && lowered.includes(word.toLowerCase()),
  );
  return `%${escapeLike(longestOf(numbered) ?? q)}%`;
};
/**
 * The prefix query `search_digit_runs` is asked for `q` (decision 047): its longest run of `DIGIT_RUN_MIN` ASCII
 * digits or more (the first of equal ones), cut as the index cuts its lexemes; null without one.
 */
export const digitRunQuery = (q: string): string | null => {
  const longest = longestOf(q.match(new RegExp(`[0-9]{${DIGIT_RUN_MIN},}`, 'g')) ?? []);
  return longest === null ? null : `${longest.slice(0, DIGIT_LEXEME_MAX)}:*`;
};
/** "#1234" or "1234" also finds that order number. */
const typedNumber = (q: string) => {
  const match = /^#?(\d{1,9})$/.exec(q);
  return match ? Number(match[1]) : null;
};

interface Variant {
  field: string;
  descending: boolean;
  cursor: boolean;
  search: boolean;
  /** The search is looked up by its run of digits (`DIGIT_SEARCH_TERMS`). */
  digits: boolean;
  /** Rows per page (1-100, checked by the query schema), or null for the whole list. */
  limit: number | null;
  /** One row per item (its JSON text) instead of one envelope: for streaming the whole list (CSV export). */
  rows?: boolean;
  /** A large list's searched page walked in the sort's order (decision 053). */
  walk?: boolean;
}

const commaList = (chunks: SQLWrapper[]) => sql.join(chunks, sql`, `);
const tuple = (chunks: SQLWrapper[]) => sql`(${commaList(chunks)})`;
const whereOf = (conditions: SQL[]) => (conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``);

/**
 * The statement of one variant of a list: PostgreSQL answers the whole envelope as JSON text (`body`), and whether
 * its page is empty (`empty`, so a caller can tell an unknown owner from an empty list without reading the text).
 */
function statementOf(list: AnyListDefinition, v: Variant): SQL {
  const { keys, seek } = (list.sorts as Record<string, { keys: SortKey[]; seek?: number }>)[v.field]!;
  const where: SQL[] = list.scope ? [list.scope] : [];
  const searchWhere = v.search ? sql`(${list.search(v.digits ? DIGIT_SEARCH_TERMS : SEARCH_TERMS)})` : undefined;
  if (searchWhere) where.push(searchWhere);
  /** The rows after the cursor, by the sort keys' values `exprs`. */
  const afterCursor = (exprs: SQLWrapper[]): SQL[] => {
    if (!v.cursor) return [];
    const values = keys.map((k, i) => sql`${sql.placeholder(`cursor${i}`)}::${sql.raw(k.type)}`);
    const op = v.descending ? '<' : '>';
    const after = [sql`${tuple(exprs)} ${sql.raw(op)} ${tuple(values)}`];
    if (seek) after.push(sql`${tuple(exprs.slice(0, seek))} ${sql.raw(`${op}=`)} ${tuple(values.slice(0, seek))}`);
    return after;
  };
  where.push(...afterCursor(keys.map((k) => k.expr)));
  const ordered = (exprs: SQLWrapper[]) => commaList(exprs.map((expr) => (v.descending ? sql`${expr} desc` : expr)));
  const orderBy = ordered(keys.map((k) => k.expr));
  if (v.rows) {
    return sql`select (${list.item})::text as item from ${list.from}
      ${whereOf(where)}
      order by ${orderBy}`;
  }
  // The page size is part of the statement, not a parameter: a generic plan then knows it reads a few rows and walks
  // the sort's index instead of sorting the whole join.
  const limit = sql.raw(v.limit === null ? '' : String(Math.trunc(v.limit)));
  const listAndSort = literal(`${list.name} ${v.descending ? '-' : ''}${v.field}`);
  if (searchWhere && walksPastCount(list, v)) {
    const cursor = cursorOf(listAndSort, keys.length);
    return cappedSearchPage(list, v.walk === true, { keys, found: searchWhere, afterCursor, ordered, limit, cursor });
  }
  // A searched first page of a list that stays small counts its matches in the same scan (one trigram search instead
  // of two); later pages start after the cursor, so they count the whole filtered list on their own.
  const countMatches = v.search && v.limit !== null && !v.cursor;
  const page = sql`
    with page as (
      select ${list.item} as item, row_number() over (order by ${orderBy}) as n,
             ${commaList(keys.map((k, i) => sql`${k.expr} as ${sql.raw(`k${i}`)}`))}${countMatches ? sql`, count(*) over () as matches` : sql``}
      from ${list.from}
      ${whereOf(where)}
      order by ${orderBy}
      ${v.limit === null ? sql`` : sql`limit ${limit} + 1`}
    )`;
  if (v.limit === null) {
    return sql`${page}
      select json_build_object('isError', false, 'message', '', 'data', coalesce(json_agg(item order by n), '[]'::json))::text as body,
             count(*) = 0 as empty
      from page`;
  }
  const cursor = cursorOf(listAndSort, keys.length);
  // A large list's filter (the audit trail's by entity, actor or role) is counted as its search is: up to
  // SEARCH_COUNT_LIMIT rows (decision 053). The catalog role's filter holds most of the trail.
  const cappedScope = list.searchCountCapped && list.scope && !searchWhere;
  const total = countMatches
    ? sql`coalesce((select max(matches) from page), 0)`
    : searchWhere
      ? sql`(select count(*) from ${list.from} ${whereOf(list.scope ? [list.scope, searchWhere] : [searchWhere])})`
      : cappedScope
        ? sql`least((select n from counted), ${CAP})`
        : list.total;
  return sql`${page}${
    cappedScope
      ? sql`,
    counted as (select count(*) as n from (select from ${list.from} where ${list.scope} limit ${CAP} + 1) scoped)`
      : sql``
  }
    select ${pageAnswer(limit, cursor, sql`'total', ${total}${cappedScope ? sql`, 'totalAtLeast', (select n from counted) > ${CAP}` : sql``}`)} as body,
    not exists (select 1 from page) as empty`;
}

/** `SEARCH_COUNT_LIMIT` written into a statement. */
const CAP = sql.raw(String(SEARCH_COUNT_LIMIT));

/**
 * A page's answer as JSON text, from the statement's `page` (its rows numbered `n`, one past the page size): the
 * envelope, the page's items, the next page's cursor, and `count`'s fields (`total`, and `totalAtLeast` where given).
 */
const pageAnswer = (limit: SQL, cursor: SQL, count: SQL) => sql`json_build_object(
      'isError', false, 'message', '',
      'data', coalesce((select json_agg(item order by n) from page where n <= ${limit}), '[]'::json),
      'page', json_build_object(
        'nextCursor', (select ${cursor} from page where n = ${limit} and exists (select 1 from page where n > ${limit})),
        ${count})
    )::text`;

/** A large list's searched page: its statement counts up to `SEARCH_COUNT_LIMIT`, and a walk follows (decision 053). */
const walksPastCount = (list: AnyListDefinition, v: Variant) =>
  list.searchCountCapped === true && v.search && v.limit !== null && !v.rows;

/** The next page's cursor, from the page's keys `k0`, `k1`...: the list and sort, then the last row's key values. */
const cursorOf = (listAndSort: SQL, keys: number) =>
  base64url(
    sql`json_build_array(${listAndSort}, ${commaList(Array.from({ length: keys }, (_, i) => sql.raw(`k${i}`)))})::text`,
  );

/**
 * A searched page of a large list (decision 053), where a common word matches most of a million rows. Its first
 * statement takes at most `SEARCH_COUNT_LIMIT` + 1 matches from the search's index, with their JSON (`hits`). With as
 * many or fewer, the page is the first of those after the cursor, and `total` counts them all. With more, it answers
 * a null body, and the list's `walk` statement answers instead: the page walks the sort's index from the cursor and
 * keeps the rows that hold the search, and `total` is `SEARCH_COUNT_LIMIT` with `totalAtLeast`. A search matching that
 * many rows meets its first page soon in most lists; its worst case, matches all at the far end of the sort, reads the
 * sort's index whole. (One statement holding both branches cost the few matches' searches a tenth more: PostgreSQL
 * prepares every branch of a plan, run or not.)
 */
function cappedSearchPage(
  list: AnyListDefinition,
  walk: boolean,
  {
    keys,
    found,
    afterCursor,
    ordered,
    limit,
    cursor,
  }: {
    keys: SortKey[];
    /** The search through its index. */
    found: SQL;
    afterCursor: (exprs: SQLWrapper[]) => SQL[];
    ordered: (exprs: SQLWrapper[]) => SQL;
    limit: SQL;
    cursor: SQL;
  },
): SQL {
  const scope = list.scope ? [list.scope] : [];
  const exprs = keys.map((k) => k.expr);
  const named = exprs.map((_, i) => sql.raw(`k${i}`));
  const keyColumns = commaList(exprs.map((expr, i) => sql`${expr} as ${named[i]}`));
  const answer = (total: SQL, atLeast: SQL) =>
    pageAnswer(limit, cursor, sql`'total', ${total}, 'totalAtLeast', ${atLeast}`);
  if (walk) {
    return sql`
      with page as (
        select ${list.item} as item, row_number() over (order by ${ordered(exprs)}) as n, ${keyColumns}
        from ${list.from} ${whereOf([...scope, sql`(${list.search(WALK_SEARCH_TERMS)})`, ...afterCursor(exprs)])}
        order by ${ordered(exprs)} limit ${limit} + 1
      )
      select ${answer(CAP, sql`true`)} as body, not exists (select 1 from page) as empty`;
  }
  return sql`
    with hits as materialized (
      select ${list.item} as item, ${keyColumns} from ${list.from} ${whereOf([...scope, found])} limit ${CAP} + 1
    ),
    matches as (select count(*) as n from hits),
    page as (
      select item, row_number() over (order by ${ordered(named)}) as n, ${commaList(named)}
      from hits ${whereOf(afterCursor(named))}
      order by ${ordered(named)} limit ${limit} + 1
    )
    select case when (select n from matches) <= ${CAP} then ${answer(sql`(select n from matches)`, sql`false`)} end as body,
           not exists (select 1 from page) as empty`;
}

/**
 * Statement texts by name, each written once and then kept while in use. Variants are finite (sort, direction,
 * cursor, search, page size 1-100 or whole, rows) but their product over every list is some thousands, so the least
 * recently used text goes first past this many; a text dropped is only written again.
 */
export const STATEMENT_TEXTS_KEPT = 512;
const texts = new Map<string, { text: string; params: unknown[] }>();
const dialect = new PgDialect();

/** How many statement texts are kept now (at most STATEMENT_TEXTS_KEPT). */
export const statementTextsKept = () => texts.size;

function textOf(name: string, write: () => SQL) {
  let text = texts.get(name);
  if (text) {
    texts.delete(name);
  } else {
    const query = dialect.sqlToQuery(write());
    text = { text: query.sql, params: query.params };
    if (texts.size >= STATEMENT_TEXTS_KEPT) texts.delete(texts.keys().next().value!);
  }
  texts.set(name, text);
  return text;
}

/**
 * The named statement and values answering one list request; `scope` fills the definition's `scopeValue(i)`. With
 * `rows`, the statement answers the whole filtered, sorted list one item per row (its JSON text), for streaming. A
 * large list's searched page comes with its `walk`, which `listAnswer` runs when the statement matched more than it
 * counts (decision 053).
 */
export function listStatement(
  list: AnyListDefinition,
  request: ListRequest,
  scope: unknown[] = [],
  rows = false,
): ListStatement & { walk?: ListStatement } {
  const sort = request.sort ?? LISTS[list.list].defaultSort;
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  const keys = (list.sorts as Record<string, { keys: SortKey[] }>)[field]!.keys;
  const q = request.q?.trim() ? request.q.trim() : undefined;
  if (!rows && request.cursor !== undefined && request.limit === undefined) {
    throw badRequest('A cursor continues a page: give limit too', { cursor: ['Needs limit'] });
  }
  const values: Record<string, unknown> = Object.fromEntries(scope.map((value, i) => [`scope${i}`, value]));
  const digits = q !== undefined && list.digitRunsIndexed ? digitRunQuery(q) : null;
  if (q !== undefined) {
    Object.assign(values, { pattern: indexedPart(q), digits, typed: q, words: q, number: typedNumber(q) });
  }
  if (!rows && request.cursor !== undefined) {
    decodeCursor(request.cursor, `${list.name} ${sort}`, keys).forEach((value, i) => (values[`cursor${i}`] = value));
  }
  // The whole filtered list, a row per item, for an export: paging does not apply.
  const variant: Variant = {
    field,
    descending,
    cursor: !rows && request.cursor !== undefined,
    search: q !== undefined,
    digits: digits !== null,
    limit: rows ? null : (request.limit ?? null),
    rows,
  };
  const named = (of: Variant): ListStatement => {
    const name = statementName(list, of);
    const { text, params } = textOf(name, () => statementOf(list, of));
    return { name, text, values: fillPlaceholders(params, values) };
  };
  if (!walksPastCount(list, variant)) return named(variant);
  // The walk reads no index of the search: its text is the same whether the search holds digits or not.
  return { ...named(variant), walk: named({ ...variant, digits: false, walk: true }) };
}

/** A variant's statement name: its list, sort and direction, then a letter for each flag and the page size. */
const statementName = (list: AnyListDefinition, v: Variant) =>
  `list_${list.name}_${v.field}_${v.descending ? 'd' : 'a'}${v.rows ? 'r' : ''}${v.cursor ? 'c' : ''}${v.search ? 's' : ''}${v.digits ? 'd' : ''}${v.limit === null ? '' : `l${v.limit}`}${v.walk ? 'w' : ''}`;

/** A named statement and its values. */
export interface ListStatement {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * The answer of a list statement: its JSON text, and whether its page holds no item. A large list's search that
 * matched too many to count answers a null body from its first statement, then its `walk` answers (decision 053).
 */
export async function listAnswer(
  db: pg.Pool | pg.PoolClient,
  statement: ListStatement & { walk?: ListStatement },
): Promise<{ body: string; empty: boolean }> {
  const { name, text, values } = statement;
  const first = (await db.query<{ body: string | null; empty: boolean }>({ name, text, values })).rows[0]!;
  if (first.body !== null) return { body: first.body, empty: first.empty };
  if (!statement.walk) throw new Error(`The list statement ${name} answered no body`);
  return (await db.query<{ body: string; empty: boolean }>(statement.walk)).rows[0]!;
}
