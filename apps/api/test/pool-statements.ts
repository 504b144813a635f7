import type pg from 'pg';

/** A statement as a pool's client was given it: its name when it is a named prepared statement, and its text. */
export interface SentStatement {
  name: string | undefined;
  text: string;
}

/** Calls `seen` with every statement sent to PostgreSQL through `pool`, on any of its clients, before it is sent. */
export function watchStatements(pool: pg.Pool, seen: (statement: SentStatement) => void) {
  const wrapped = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const statement = args[0] as string | { name?: string; text: string };
      seen(
        typeof statement === 'string'
          ? { name: undefined, text: statement }
          : { name: statement.name, text: statement.text },
      );
      return query(...args);
    };
  });
}
