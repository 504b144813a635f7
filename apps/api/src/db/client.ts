import { fillPlaceholders, getTableColumns, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { PgDialect, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.js';
import { sqlStateOf } from './sql-state.js';

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/** A row whose columns may all be null: the other side of a left join that found nothing. */
export type Nullable<Row> = { [Column in keyof Row]: Row[Column] | null };

/** A transaction of a `createDatabase` database. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The connection each transaction of `createDatabase`'s databases runs on (savepoints are not used, nor known). */
const transactionClients = new WeakMap<object, pg.PoolClient>();

/**
 * Where a named prepared statement (decision 039) runs: the transaction's own connection, or the pool for the
 * database itself. A transaction this module did not open is refused: run on the pool, its statements would leave
 * the transaction (and its locks) behind.
 */
export function connectionOf(q: Database | Transaction): pg.Pool | pg.PoolClient {
  const client = transactionClients.get(q);
  if (client !== undefined) return client;
  if ('$client' in q && q.$client instanceof pg.Pool) return q.$client;
  throw new Error('Not a database or transaction of createDatabase: its connection is unknown');
}

/** Builds statements from drizzle's typed builder and runs none: for statements whose text is generated once. */
export const statementBuilder = drizzle.mock();

/** Placeholders by name, as SQL values a builder's `set` and conditions take. */
export const placeholders = <K extends string>(...names: K[]) =>
  Object.fromEntries(names.map((name) => [name, sql`${sql.placeholder(name)}`])) as Record<K, SQL>;

/** A table's column names, as an insert lists them. */
export const columnList = (columns: readonly PgColumn[]) =>
  sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );

/** The value an upsert tried to insert into `column` (its `excluded` row), for the conflict's update. */
export const excluded = (column: PgColumn) => sql`excluded.${sql.identifier(column.name)}`;

/**
 * A table's columns for a named statement's select list, each named as the table's type names it. Its rows are the
 * table's rows as drizzle's reads give them only where pg parses a column as drizzle would: text, uuid, boolean,
 * integer, jsonb, text[] and timestamptz do; a bigint in number mode or a date in string mode do not.
 */
export const rowColumns = (table: PgTable) =>
  sql.join(
    Object.entries(getTableColumns(table)).map(([key, column]) => sql`${column} as ${sql.identifier(key)}`),
    sql`, `,
  );

/** Whether `table` holds any row: one row's look-up, where a count reads all of a large table. */
export async function hasRows(db: Pick<Database, 'select'>, table: PgTable): Promise<boolean> {
  return (
    (
      await db
        .select({ one: sql`1` })
        .from(table)
        .limit(1)
    ).length > 0
  );
}

/**
 * `insert into table (columns) select values`, each value cast to its column's type (a SELECT's untyped parameters
 * would be text): for an insert a statement makes only when its condition holds (the caller adds `where …`).
 */
export const insertSelect = (table: PgTable, values: readonly (readonly [PgColumn, SQLWrapper])[]) =>
  sql`insert into ${table} (${columnList(values.map(([column]) => column))})
    select ${sql.join(
      values.map(([column, value]) => sql`${value}::${sql.raw(column.getSQLType())}`),
      sql`, `,
    )}`;

const statementNames = new Set<string>();

/**
 * A named prepared statement (decisions 027 and 039): its text generated once, at load, from typed SQL whose values
 * are `sql.placeholder`s, and planned once per connection. Runs on the caller's transaction, or the pool. Two
 * statements of one name would collide on a connection: the second is refused at load.
 */
export function namedStatement<Row extends pg.QueryResultRow>(name: string, statement: SQL) {
  if (statementNames.has(name)) throw new Error(`Two prepared statements are named ${name}`);
  statementNames.add(name);
  const { sql: text, params } = new PgDialect().sqlToQuery(statement);
  // Not an async function: the statement is given to the connection as the call is made, so a transaction's next
  // statement can be sent before this one's answer (decision 051). A value missing for a placeholder, or a connection
  // it does not know, throws at the call: nothing was sent, and a write fails before its COMMIT is sent
  // (`answeredAtCommit`). pg converts the values as it sends them; strings, numbers and null always convert.
  return (q: Database | Transaction, values: Record<string, unknown>): Promise<Row[]> =>
    connectionOf(q)
      .query<Row>({ name, text, values: fillPlaceholders(params, values) })
      .then((result) => result.rows);
}

/** Per transaction, the statements sent whose answers are awaited with its COMMIT (`answeredAtCommit`). */
const awaitedAtCommit = new WeakMap<object, Promise<unknown>[]>();

/**
 * Sends a statement in `tx` (`send` gives it to the connection as it is called, as a named statement does) whose
 * answer the transaction awaits only after it has sent COMMIT behind it, on the same connection, with no wait in
 * between (decision 051). The write's caller sees its failure as the transaction's: PostgreSQL ran COMMIT on a failed
 * transaction as a ROLLBACK, and the transaction throws the statement's error. A `send` that throws sent nothing: the
 * work fails, and the transaction rolls back.
 */
export function answeredAtCommit(tx: Transaction, send: () => Promise<unknown>): void {
  const answers = awaitedAtCommit.get(tx);
  if (answers === undefined) throw new Error('Not a transaction of createDatabase, or one already over');
  const answer = send();
  // Handled now; awaited (and thrown) with the COMMIT.
  answer.catch(() => undefined);
  answers.push(answer);
}

/** PostgreSQL's answer to a statement sent after one failed in the same transaction. */
const IN_FAILED_TRANSACTION = '25P02';

/**
 * pg's pipeline mode (decision 051): a statement given to the connection is sent at once, behind any still
 * unanswered, instead of after the previous answer. Statements a caller awaits one by one run as before. A cursor
 * (a portal kept across round trips) is refused in it, so only a transaction's own connection turns it on, for the
 * transaction, and the CSV export's cursor runs on a connection of its own. @types/pg declares the flag read-only,
 * set by the constructor; pg reads it on every statement.
 */
function pipelined(client: pg.PoolClient, on: boolean) {
  (client as { pipeline: boolean }).pipeline = on;
}

// numeric(10,2) comes back as text; the services turn it into numbers with Number().
export function createDatabase(connectionString: string): { db: Database; pool: pg.Pool } {
  // random_page_cost 1.1: the data lives on SSDs or in memory, where an index's random reads cost about what sequential
  // ones do (4.0 is the spinning-disk default): the planner then takes the lists' trigram and keyset indexes.
  // force_generic_plan: a named statement is planned once per connection. With one member owning most orders the
  // planner otherwise re-plans every execution for its values, which cost more than running the statement (0.69 ms
  // against 0.45 ms for a page of payment history); the generic plans are checked with EXPLAIN in the tests.
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: 5000,
    options: '-c random_page_cost=1.1 -c plan_cache_mode=force_generic_plan',
  });
  // A client losing its server (PostgreSQL restarted or killed) must not crash the process. The pool listens on idle
  // clients only; a checked-out one (inside a transaction, between its statements) would emit 'error' to nobody, so
  // every client gets a listener of its own. The statement in flight still fails, and the pool drops the client.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool, { schema });
  // drizzle's transaction on a pool sends BEGIN before its try block: when the connection is gone at that moment
  // (PostgreSQL killed), the client is never given back and the pool shrinks by one for good, until every request
  // waits. Here the client is checked out and always released; the pool drops it if its connection is dead.
  //
  // Each connection keeps its own drizzle instance: making one reads the whole schema's relations again, which took
  // about a sixteenth of the server's busy time in ten price saves at once when it was made for every transaction.
  const onClient = new WeakMap<pg.PoolClient, NodePgDatabase<typeof schema>>();
  db.transaction = async (run, config) => {
    const client = await pool.connect();
    const answers: Promise<unknown>[] = [];
    let transaction: Transaction | null = null;
    // PostgreSQL tells after each statement whether the transaction has failed ('E'). A COMMIT answered ('I') right
    // after that was a ROLLBACK, answered without an error: the write must not be reported as made. (After a savepoint
    // rolled back, the transaction is 'T' again and its COMMIT commits.)
    let status: string | undefined;
    let failed = false;
    // PostgreSQL's first error in the transaction: the cause of its failure, and of every refusal after it.
    let firstError: unknown;
    const heard = (message: { status?: string }) => {
      failed ||= message.status === 'I' && status === 'E';
      status = message.status;
    };
    const refused = (error: unknown) => {
      firstError ??= error;
    };
    client.connection.on('readyForQuery', heard);
    client.connection.on('errorMessage', refused);
    try {
      let clientDb = onClient.get(client);
      if (clientDb === undefined) onClient.set(client, (clientDb = drizzle(client, { schema })));
      pipelined(client, true);
      const result = await clientDb
        .transaction((tx) => {
          transaction = tx;
          transactionClients.set(tx, client);
          awaitedAtCommit.set(tx, answers);
          return run(tx);
        }, config)
        .catch((error: unknown) => {
          // Refused because a statement before it failed: that one's error is the transaction's.
          throw sqlStateOf(error) === IN_FAILED_TRANSACTION && firstError !== undefined ? firstError : error;
        });
      // COMMIT has been answered: a statement that failed before it made it a ROLLBACK, and fails the write here.
      await Promise.all(answers);
      if (failed) {
        throw new Error('A statement of the transaction failed unheard: PostgreSQL rolled it back', {
          cause: firstError,
        });
      }
      return result;
    } finally {
      client.connection.off('readyForQuery', heard);
      client.connection.off('errorMessage', refused);
      // A named statement sent through the transaction after its end would run outside it: refused from now on.
      if (transaction !== null) {
        transactionClients.delete(transaction);
        awaitedAtCommit.delete(transaction);
      }
      pipelined(client, false);
      client.release();
    }
  };
  return { db, pool };
}

/** Held while migrating, and while granting the application role (app-role.ts). */
export const MIGRATION_LOCK_KEY = 7_202_611;

/** Why PostgreSQL stopped a migration: something in the step's way, the server's statement_timeout, or a busy server. */
export type RefusalKind = 'refused' | 'timeout' | 'busy';

/**
 * PostgreSQL stopped a statement of a migration: every pending migration runs in one transaction, which rolled back,
 * so the schema is as it was. The message is the server's, with its detail.
 */
export class MigrationRefused extends Error {
  constructor(
    message: string,
    readonly kind: RefusalKind,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** SQL state classes of a step the schema or its data is in the way of: a person fixes what the message names. */
const IN_THE_WAY = ['22', '23', '25', '2B', '3F', '42', '0A'];
/** Classes of a server too busy or locked just now (deadlock, lock timeout, too many connections): a start again. */
const BUSY = ['40', '53', '55'];

/** What a person does about a statement PostgreSQL stopped with this SQL state; null: not a migration's own failure. */
function refusalKind(code: string): RefusalKind | null {
  if (code === '57014') return 'timeout';
  if (BUSY.includes(code.slice(0, 2))) return 'busy';
  return IN_THE_WAY.includes(code.slice(0, 2)) ? 'refused' : null;
}

/**
 * `error` as a MigrationRefused, when PostgreSQL stopped one of a migration's statements for a reason a person acts
 * on; null for anything else (a lost connection, a refused login, a missing database), which the start's failure
 * names otherwise.
 */
export function asMigrationRefused(error: unknown): MigrationRefused | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    const { code, severity, detail } = current as Error & { code?: unknown; severity?: unknown; detail?: unknown };
    if (typeof severity !== 'string' || typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) continue;
    const message = typeof detail === 'string' && detail ? `${current.message}: ${detail}` : current.message;
    const kind = refusalKind(code);
    return kind ? new MigrationRefused(message, kind, { cause: error }) : null;
  }
  return null;
}

/** Applies the committed SQL migrations; an advisory lock lets several processes start at once. */
export async function runMigrations(db: Database, pool: pg.Pool, migrationsFolder: string) {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate(db, { migrationsFolder }).catch((error: unknown) => {
      throw asMigrationRefused(error) ?? error;
    });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}
