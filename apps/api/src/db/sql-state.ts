/** An error, or one it wraps, as the driver and the ORM build them. */
export type Cause = { code?: unknown; syscall?: unknown; message?: unknown; cause?: unknown };

/** The error and what caused it (drizzle wraps the driver's error as its cause), outermost first. */
export function causes(error: unknown): Cause[] {
  const chain: Cause[] = [];
  for (let at = error; at && typeof at === 'object' && chain.length < 5; at = (at as Cause).cause)
    chain.push(at as Cause);
  return chain;
}

/** PostgreSQL's SQLSTATE of a failed query, wherever the driver or the ORM wrapped it (drizzle keeps it as `cause`). */
export const sqlStateOf = (error: unknown): string | undefined =>
  causes(error)
    .map((cause) => cause.code)
    .find((code): code is string => typeof code === 'string');
