import type pg from 'pg';

/** A statement as a pool's client was given it: its name when it is a named prepared statement, its text and values. */
export interface SentStatement {
  name: string | undefined;
  text: string;
  values: unknown[] | undefined;
}

/** Calls `seen` with every statement sent to PostgreSQL through `pool`, on any of its clients, before it is sent. */
export function watchStatements(pool: pg.Pool, seen: (statement: SentStatement) => void) {
  eachClient(pool, (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const statement = args[0] as string | { name?: string; text: string; values?: unknown[] };
      // Values come in the config, or beside it (as Drizzle passes them).
      const values = Array.isArray(args[1]) ? (args[1] as unknown[]) : undefined;
      seen(
        typeof statement === 'string'
          ? { name: undefined, text: statement, values }
          : { name: statement.name, text: statement.text, values: statement.values ?? values },
      );
      return query(...args);
    };
  });
}

/**
 * A recorder of `pool`'s statements: `record(work)` answers every statement sent through the pool while `work` ran, in
 * the order sent (the app's own timers included, should one fire then).
 */
export function statementRecorder(pool: pg.Pool) {
  const sent: SentStatement[] = [];
  let recording = false;
  watchStatements(pool, (statement) => recording && sent.push(statement));
  return async function record(work: () => Promise<unknown>): Promise<SentStatement[]> {
    sent.length = 0;
    recording = true;
    try {
      await work();
      return [...sent];
    } finally {
      recording = false;
    }
  };
}

/**
 * Calls `waited` each time a client of `pool` sends PostgreSQL a statement while no other is unanswered: from then on
 * the server waits for PostgreSQL's answer (a round trip). Statements sent behind one still unanswered (pg's pipeline
 * mode, decision 051) join its wait. Each statement ends with one Sync (the extended protocol) or is one simple query,
 * and PostgreSQL answers each with one ReadyForQuery.
 */
export function watchRoundTrips(pool: pg.Pool, waited: () => void) {
  eachClient(pool, (client) => {
    const connection = (client as unknown as { connection: WireConnection }).connection;
    let unanswered = 0;
    const sending =
      (send: (...args: unknown[]) => unknown) =>
      (...args: unknown[]) => {
        if (unanswered++ === 0) waited();
        return send(...args);
      };
    connection.sync = sending(connection.sync.bind(connection));
    connection.query = sending(connection.query.bind(connection));
    // Before pg's own listener, which sends a statement queued behind this answer: that one waits anew.
    connection.prependListener('readyForQuery', () => {
      unanswered = Math.max(0, unanswered - 1);
    });
  });
}

/** The part of pg's connection (not in its types) that sends a statement's end and hears PostgreSQL's answer. */
interface WireConnection {
  sync: (...args: unknown[]) => unknown;
  query: (...args: unknown[]) => unknown;
  prependListener(event: 'readyForQuery', listener: () => void): unknown;
}

/** Calls `watch` once for each client of `pool`, the first time the pool hands it out. */
function eachClient(pool: pg.Pool, watch: (client: pg.PoolClient) => void) {
  const watched = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (watched.has(client)) return;
    watched.add(client);
    watch(client);
  });
}
