import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * What an account id looks like: anything else finds no account, rather than failing its cast to uuid. PostgreSQL
 * reads the same pattern (`~*` for the `i` flag).
 */
export const ACCOUNT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether the uuid `column` holds the account `id` names: a text that may be no account id (a token's subject, an
 * operator's name). One that is not finds no row. The column is compared as a uuid, so its index finds the row:
 * compared as text (`column::text = id`), PostgreSQL reads the whole table. `id` is cast as text before it is
 * cast to uuid: a parameter cast to uuid alone would be sent as one, and a text that is no uuid refused.
 */
export const isAccountId = (column: SQLWrapper, id: SQLWrapper | string): SQL =>
  sql`${column} = case when ${id}::text ~* ${ACCOUNT_ID_PATTERN.source} then (${id}::text)::uuid end`;
