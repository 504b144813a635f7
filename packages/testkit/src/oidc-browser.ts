import { createHash, randomBytes } from 'node:crypto';
import { dpopKey, type DpopKey } from './dpop.js';
import { plainRequest } from './plain-request.js';

// A scripted browser for the embedded provider: used by the tests and by the load benchmark (no test runner here).

/** A browser's cookie jar, enough for the provider's cookies; `setCookies` keeps every Set-Cookie header as sent. */
export function browser(defaultHeaders: Record<string, string> = {}) {
  const jar = new Map<string, string>();
  const setCookies: string[] = [];
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await plainRequest(url, {
      ...init,
      headers: {
        ...defaultHeaders,
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      setCookies.push(cookie);
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
    return response;
  };
  /** Sets a cookie as if the site had (another tab's session, shared as a browser shares it). */
  const setCookie = (name: string, value: string) => void jar.set(name, value);
  /** The cookies this browser holds now, by name. */
  const cookies = (): ReadonlyMap<string, string> => jar;
  return Object.assign(go, { setCookies, setCookie, cookies });
}

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export function authorizeUrl(base: string, challenge: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams({
    client_id: 'ums-web',
    response_type: 'code',
    redirect_uri: `${base}/auth/callback`,
    scope: 'openid email phone profile',
    state: 'state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  return `${base}/oidc/auth?${params}`;
}

export type Browser = ReturnType<typeof browser>;

/** One sign-in attempt: authorize, open our page, post the credentials (a fresh browser unless one is given). */
export async function attemptSignIn(
  base: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
  go = browser(headers),
  challenge = pkce().challenge,
  extra: Record<string, string> = {},
) {
  const first = await go(authorizeUrl(base, challenge));
  const page = await go(new URL(first.headers.get('location')!, base).toString());
  const action = /action="([^"]+)"/.exec(await page.text())![1]!;
  return go(new URL(action, base).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, ...extra }).toString(),
  });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
}

/**
 * The key each token was issued under, as the web app's DPoP key store keeps the tab's key beside its tokens: a
 * refresh, or an API call, made with one of these tokens proves that key without the test passing it around.
 */
const keysByToken = new Map<string, DpopKey>();
function remember(body: Partial<Tokens>, key: DpopKey | undefined) {
  if (!key) return;
  for (const token of [body.access_token, body.refresh_token]) if (token) keysByToken.set(token, key);
}

/** The key a token from `signIn` or `refresh` is bound to. */
export function keyOf(token: string): DpopKey {
  const key = keysByToken.get(token);
  if (!key) throw new Error('this token was not issued to a key of this test');
  return key;
}

/**
 * The headers of one API call with a token from `signIn` or `refresh`, as the web app sends them: the DPoP scheme and
 * a fresh proof of the token's key naming this method and address (`url`, as the public reaches it; no query).
 */
export function dpopHeaders(token: string, method: string, url: string): Record<string, string> {
  const address = new URL(url);
  return {
    authorization: `DPoP ${token}`,
    dpop: keyOf(token).proof(method, `${address.origin}${address.pathname}`, token),
  };
}

/**
 * Posts to the provider's token endpoint with a DPoP proof of the key given (none when `dpop` is null: the web client
 * is refused a token then); the answer's body, whatever its status.
 */
async function tokenRequest(
  base: string,
  params: Record<string, string>,
  dpop: DpopKey | null | undefined,
  publicBase = base,
) {
  const response = await plainRequest(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      // The proof names the endpoint's public address, which the provider derives from PUBLIC_URL.
      ...(dpop ? { dpop: dpop.proof('POST', `${publicBase}/oidc/token`) } : {}),
    },
    body: new URLSearchParams({ client_id: 'ums-web', ...params }).toString(),
  });
  const body = (await response.json()) as Partial<Tokens> & { error?: string; error_description?: string };
  // A test means its proofs to be right: a refusal of the proof itself would pass for the refusal a test expects.
  if (body.error === 'invalid_dpop_proof')
    throw new Error(`the provider refused the DPoP proof: ${JSON.stringify(body)}`);
  if (response.ok) remember(body, dpop ?? undefined);
  return { status: response.status, body };
}

/**
 * Uses a refresh token on the server process at `base`, with a proof of the key it was issued under unless another
 * key (or null, none) is given; `publicBase` is the product's public address when `base` is one process behind it.
 */
export const refresh = (base: string, refreshToken: string, dpop?: DpopKey | null, publicBase = base) =>
  tokenRequest(
    base,
    { grant_type: 'refresh_token', refresh_token: refreshToken },
    // A token this test was not given is a mistake in the test, not a refusal to expect: keyOf says so.
    dpop === undefined ? keyOf(refreshToken) : dpop,
    publicBase,
  );

/**
 * Signs in through the real provider (authorization code + PKCE) in a browser of its own, or the one given: the
 * tokens (bound with DPoP to the key given, or to a new one, as the web app's are), that key, and the browser with
 * its provider session cookie. `remember` ticks "Keep me signed in".
 */
export async function signIn(
  base: string,
  email: string,
  password: string,
  options: {
    go?: Browser;
    remember?: boolean;
    dpop?: DpopKey;
    /** The second factor to give when the account asks for one: an authenticator code or a recovery code. */
    secondFactor?: { code: string } | { recovery: string };
  } = {},
): Promise<SignedIn> {
  const go = options.go ?? browser();
  const { verifier, challenge } = pkce();
  let response = await attemptSignIn(
    base,
    email,
    password,
    {},
    go,
    challenge,
    options.remember ? { remember: 'yes' } : {},
  );
  if (response.status === 200 && options.secondFactor)
    response = await giveSecondFactor(base, go, response, options.secondFactor);
  return finishSignIn(base, go, response, verifier, email, options.dpop ?? (await dpopKey()));
}

/** A finished sign-in: the tokens, the key they are bound to, and the browser. */
export type SignedIn = Tokens & { go: Browser; dpop: DpopKey };

/**
 * The rest of a sign-in once a page of ours said yes: back through the authorization endpoint to the app's callback
 * with the code, then the token request (with a DPoP proof of the key given, or of a new one; null sends none, which
 * the provider refuses the web client).
 */
export async function finishSignIn(
  base: string,
  go: Browser,
  answer: Response,
  verifier: string,
  who: string,
  key?: DpopKey | null,
): Promise<SignedIn> {
  const dpop = key === undefined ? await dpopKey() : key;
  let response = answer;
  let code: string | null = null;
  for (let hops = 0; hops < 6 && !code; hops++) {
    const location = response.headers.get('location');
    if (!location) throw new Error(`sign-in for ${who} stopped with status ${response.status}`);
    const url = new URL(location, base);
    code = url.pathname === '/auth/callback' ? url.searchParams.get('code') : null;
    if (!code) response = await go(url.toString());
  }
  const { body } = await tokenRequest(
    base,
    { grant_type: 'authorization_code', code: code!, redirect_uri: `${base}/auth/callback`, code_verifier: verifier },
    dpop,
  );
  if (!body.access_token || !body.refresh_token || !body.id_token) {
    throw new Error(`no tokens for ${who}: ${JSON.stringify(body)}`);
  }
  if (!dpop) throw new Error(`the provider issued tokens for ${who} without a DPoP proof`);
  return {
    access_token: body.access_token,
    refresh_token: body.refresh_token,
    id_token: body.id_token,
    go,
    dpop,
  };
}

/** Answers the "Two-step verification" page the password led to: posts its form with the code given. */
export async function giveSecondFactor(
  base: string,
  go: Browser,
  page: Response,
  factor: { code: string } | { recovery: string },
): Promise<Response> {
  const html = await page.text();
  let action = /action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no second-factor form: ${html.slice(0, 200)}`);
  action = action.replaceAll('&amp;', '&');
  if ('recovery' in factor && !action.includes('with=recovery')) action = `${action}?with=recovery`;
  return go(new URL(action, base).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(factor).toString(),
  });
}

/**
 * Whether this browser's provider session signs it in without asking: an authorization request with prompt=none,
 * sent to the process at `base`, comes straight back with a code. `publicBase` is the product's public address
 * (its redirect address) when `base` is one process behind it.
 */
export async function signsInSilently(base: string, go: Browser, publicBase = base): Promise<boolean> {
  const response = await go(
    authorizeUrl(base, pkce().challenge, { prompt: 'none', redirect_uri: `${publicBase}/auth/callback` }),
  );
  const location = response.headers.get('location');
  return location !== null && new URL(location, base).searchParams.has('code');
}

/** Signs in through the real provider and returns the access token (bound to a key of its own: see `dpopHeaders`). */
export async function accessToken(base: string, email: string, password: string): Promise<string> {
  return (await signIn(base, email, password)).access_token;
}

/** The provider's sign-out page for this browser, as the web app opens it (with the ID token as hint). */
export async function openSignOut(base: string, go: Browser, idTokenHint?: string) {
  const params = new URLSearchParams({ client_id: 'ums-web', post_logout_redirect_uri: `${base}/` });
  if (idTokenHint) params.set('id_token_hint', idTokenHint);
  const response = await go(`${base}/oidc/session/end?${params}`);
  return { status: response.status, html: await response.text() };
}

/** Signs this browser out at the provider: opens the sign-out page and confirms it, as its script does. */
export async function signOut(base: string, go: Browser, idTokenHint: string) {
  const { html } = await openSignOut(base, go, idTokenHint);
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
  if (!xsrf) throw new Error(`no sign-out form: ${html.slice(0, 200)}`);
  return go(`${base}/oidc/session/end/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
  });
}
