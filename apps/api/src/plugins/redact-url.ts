// Request URLs as they may be logged.

/** Query parameters whose values never reach a log line: tokens, codes, hints that name a person. */
const SECRET_PARAMS =
  /([?&](?:id_token_hint|logout_hint|login_hint|code|code_verifier|access_token|refresh_token|token|state)=)[^&#]*/gi;
export const redactUrl = (url: string) => url.replace(SECRET_PARAMS, '$1[redacted]');
