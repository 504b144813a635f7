// What may reach a log line: request URLs without their secrets, errors without the values they were about.

/** Query parameters whose values never reach a log line: tokens, codes, hints that name a person. */
const SECRET_PARAMS =
  /([?&](?:id_token_hint|logout_hint|login_hint|code|code_verifier|access_token|refresh_token|token|state)=)[^&#]*/gi;
export const redactUrl = (url: string) => url.replace(SECRET_PARAMS, '$1[redacted]');

/** Everything from a failed query's "params:" up to its stack frames: the values a person sent. */
const QUERY_PARAMS = /\nparams: [\s\S]*?(?=\n {4}at |$)/g;
const scrub = (text: string | undefined) => (text ?? '').replace(QUERY_PARAMS, '\nparams: [redacted]');

export interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: unknown;
  cause?: LoggedError;
}

/**
 * An error as logged: its type, message, stack and code, and its cause the same way. A failed query's parameters
 * (drizzle puts them in the message) and PostgreSQL's detail (which quotes the row's values) are left out: they are
 * what members typed, names, emails, birthdates.
 */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '[not an Error]', stack: '' };
  const { code } = error as { code?: unknown };
  return {
    type: error.constructor.name,
    message: scrub(error.message),
    stack: scrub(error.stack),
    ...(code !== undefined ? { code } : {}),
    ...(error.cause !== undefined && depth < 3 ? { cause: serializeError(error.cause, depth + 1) } : {}),
  };
}
