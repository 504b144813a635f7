/** An error whose message a person may read, answered with its status in the envelope. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    /** What the answer's `data` holds (empty when not given), such as the current state a conflict is about. */
    readonly data?: unknown[],
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} was not found`);
export const badRequest = (message: string, errors?: Record<string, string[]>) => new HttpError(400, message, errors);
export const conflict = (message: string) => new HttpError(409, message);

export const DATABASE_UNAVAILABLE = 'The database is unavailable. Please try again shortly.';
/** A request that reached a server process while it closes (a restart, or scaling in). */
export const SERVER_CLOSING = 'This server is restarting. Please try again shortly.';
