import { createHash, randomBytes } from 'node:crypto';

// A scripted browser for the embedded provider: used by the tests and by the load benchmark (no test runner here).

/** A browser's cookie jar, enough for the provider's cookies. */
export function browser(defaultHeaders: Record<string, string> = {}) {
  const jar = new Map<string, string>();
  return async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...defaultHeaders,
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
    return response;
  };
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

/** One sign-in attempt: authorize, open our page, post the credentials (a fresh browser unless one is given). */
export async function attemptSignIn(
  base: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
  go = browser(headers),
  challenge = pkce().challenge,
) {
  const first = await go(authorizeUrl(base, challenge));
  const page = await go(new URL(first.headers.get('location')!, base).toString());
  const action = /action="([^"]+)"/.exec(await page.text())![1]!;
  return go(new URL(action, base).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
}

/** Signs in through the real provider (authorization code + PKCE) and returns the access token. */
export async function accessToken(base: string, email: string, password: string): Promise<string> {
  const go = browser();
  const { verifier, challenge } = pkce();
  let response = await attemptSignIn(base, email, password, {}, go, challenge);
  // Back through the authorization endpoint, which redirects to the app with the code.
  let code: string | null = null;
  for (let hops = 0; hops < 6 && !code; hops++) {
    const location = response.headers.get('location');
    if (!location) throw new Error(`sign-in for ${email} stopped with status ${response.status}`);
    const url = new URL(location, base);
    code = url.pathname === '/auth/callback' ? url.searchParams.get('code') : null;
    if (!code) response = await go(url.toString());
  }
  const tokens = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: 'ums-web',
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: `${base}/auth/callback`,
      code_verifier: verifier,
    }).toString(),
  });
  const body = (await tokens.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no access token for ${email}: ${JSON.stringify(body)}`);
  return body.access_token;
}
