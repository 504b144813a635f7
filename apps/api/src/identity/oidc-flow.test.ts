import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/helper.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config/env.js';
import { paths } from '../runtime.js';
import { createAccountService } from './accounts.service.js';
import { SIGN_IN_ERROR } from './pages.js';

// The real provider on a loopback port: the issuer must match the address the test calls.
const database = await testDatabase();
const probe = (await import('node:net')).createServer();
const port = await new Promise<number>((resolve) =>
  probe.listen(0, '127.0.0.1', () => resolve((probe.address() as AddressInfo).port)),
);
await new Promise<void>((resolve) => probe.close(() => resolve()));
const base = `http://127.0.0.1:${port}`;
const config = loadConfig(
  { PORT: String(port), PUBLIC_URL: base, HOST: '127.0.0.1' },
  { catalogFile: paths.catalogFile },
);
let app = await buildApp({ config, db: database.db, embeddedIdentity: true, logger: false });
await app.listen({ port, host: '127.0.0.1' });
afterAll(() => app.close());
await createAccountService({ db: database.db }).add({
  email: 'flow@example.com',
  password: 'Flow-Pass-42',
  admin: true,
  firstName: 'Flo',
  lastName: 'Wright',
});

const REDIRECT = `${base}/auth/callback`;

/** A browser's cookie jar, enough for the provider's cookies. */
function browser() {
  const jar = new Map<string, string>();
  return async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
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

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

function authorizeUrl(challenge: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams({
    client_id: 'ums-web',
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid email phone profile',
    state: 'state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  return `${base}/oidc/auth?${params}`;
}

/** Authorize -> our sign-in page -> credentials -> the code at the redirect URI. */
async function signIn(go: ReturnType<typeof browser>, challenge: string, password = 'Flow-Pass-42') {
  let response = await go(authorizeUrl(challenge));
  expect(response.status).toBe(303);
  const interaction = new URL(response.headers.get('location')!, base).toString();
  response = await go(interaction);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).toContain('<label for="email">Email</label>');
  const action = /action="([^"]+)"/.exec(html)![1]!;
  response = await go(new URL(action, base).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'FLOW@example.com', password }).toString(),
  });
  if (response.status !== 303) return { response, code: null };
  // Back to the authorization endpoint, which answers with the code.
  for (let hops = 0; hops < 5; hops++) {
    const location = response.headers.get('location')!;
    if (location.startsWith(REDIRECT)) return { response, code: new URL(location).searchParams.get('code') };
    response = await go(new URL(location, base).toString());
  }
  throw new Error('no code');
}

async function token(body: Record<string, string>) {
  const response = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'ums-web', ...body }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe('embedded OpenID provider', () => {
  it('runs the whole flow: PKCE, sign-in page, code, API call, refresh with rotation, end session', async () => {
    const go = browser();
    const { verifier, challenge } = pkce();
    const { code } = await signIn(go, challenge);
    expect(code).toBeTruthy();

    const tokens = await token({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(tokens.body).not.toHaveProperty('error');
    expect(tokens.status).toBe(200);
    expect(tokens.body['refresh_token']).toBeTruthy();
    const claims = JSON.parse(Buffer.from(tokens.body['access_token']!.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({
      aud: `${base}/api`,
      email: 'flow@example.com',
      groups: ['Admin'],
      'custom:role': 'admin',
    });
    const idClaims = JSON.parse(Buffer.from(tokens.body['id_token']!.split('.')[1]!, 'base64url').toString());
    expect(idClaims).toMatchObject({
      email: 'flow@example.com',
      groups: ['Admin'],
      given_name: 'Flo',
      family_name: 'Wright',
      name: 'Flo Wright',
      // The web app reports the role to analytics from the ID token.
      'custom:role': 'admin',
    });

    const api = await fetch(`${base}/api/test/auth`, {
      headers: { authorization: `Bearer ${tokens.body['access_token']}` },
    });
    expect(api.status).toBe(200);
    expect(((await api.json()) as { data: unknown[] }).data[0]).toMatchObject({
      email: 'flow@example.com',
      groups: ['Admin'],
    });
    // An ID token is not an access token.
    const withId = await fetch(`${base}/api/test/auth`, {
      headers: { authorization: `Bearer ${tokens.body['id_token']}` },
    });
    expect(withId.status).toBe(401);

    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.body['refresh_token']! });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body['refresh_token']).not.toBe(tokens.body['refresh_token']);
    // The rotated-out refresh token is refused.
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.body['refresh_token']! })).status).toBe(
      400,
    );

    // The code cannot be used twice.
    expect(
      (await token({ grant_type: 'authorization_code', code: code!, redirect_uri: REDIRECT, code_verifier: verifier }))
        .status,
    ).toBe(400);
    expect((await token({ grant_type: 'refresh_token', refresh_token: refreshed.body['refresh_token']! })).status).toBe(
      400,
    );

    const logout = await go(
      `${base}/oidc/session/end?client_id=ums-web&post_logout_redirect_uri=${encodeURIComponent(`${base}/logout-complete`)}`,
    );
    expect(logout.status).toBe(200);
    const asked = await logout.text();
    expect(asked).toContain('Do you want to sign out of your membership account?');
    expect(asked).not.toContain('sign-out.js');

    // With the app's own ID token as hint the form confirms itself through a script file (no inline script).
    const hinted = await go(
      `${base}/oidc/session/end?client_id=ums-web&post_logout_redirect_uri=${encodeURIComponent(`${base}/`)}&id_token_hint=${tokens.body['id_token']}`,
    );
    expect(hinted.status).toBe(200);
    const auto = await hinted.text();
    expect(auto).toContain('Signing you out...');
    expect(auto).toContain('<script src="/oidc-assets/sign-out.js"></script>');
    const script = await fetch(`${base}/oidc-assets/sign-out.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(await script.text()).toContain("getElementById('op.logoutForm')");
  });

  it('signs nobody out on restart: keys, grants and refresh tokens live in PostgreSQL', async () => {
    const { verifier, challenge } = pkce();
    const { code } = await signIn(browser(), challenge);
    const tokens = await token({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    await app.close();
    app = await buildApp({ config, db: database.db, embeddedIdentity: true, logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    // The access token from before the restart still verifies, and the refresh token still works.
    const api = await fetch(`${base}/api/test/auth`, {
      headers: { authorization: `Bearer ${tokens.body['access_token']}` },
    });
    expect(api.status).toBe(200);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.body['refresh_token']! });
    expect(refreshed.status).toBe(200);
  });

  it('refuses bad credentials without saying which part was wrong', async () => {
    const { response } = await signIn(browser(), pkce().challenge, 'Wrong-Pass-1');
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toContain(SIGN_IN_ERROR);
  });

  it('slows down guessing: after 5 failures for one account the sign-in answers 429', async () => {
    await createAccountService({ db: database.db }).add({ email: 'guess@example.com', password: 'Guess-Pass-42' });
    const attempt = async (password: string) => {
      const go = browser();
      const first = await go(authorizeUrl(pkce().challenge));
      const page = await go(new URL(first.headers.get('location')!, base).toString());
      const action = /action="([^"]+)"/.exec(await page.text())![1]!;
      return go(new URL(action, base).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'guess@example.com', password }).toString(),
      });
    };
    // The failures of the earlier test came from this same address: count from a fresh account only.
    let status = 0;
    for (let i = 0; i < 6 && status !== 429; i++) status = (await attempt(`Wrong-Pass-${i}`)).status;
    expect(status).toBe(429);
    const right = await attempt('Guess-Pass-42');
    expect(right.status).toBe(429);
    expect(await right.text()).toContain('Too many sign-in attempts');
  });

  it('refuses authorization requests without PKCE S256 or with a redirect URI not registered exactly', async () => {
    const { challenge } = pkce();
    const refused = async (url: string) => {
      const response = await fetch(url, { redirect: 'manual' });
      const location = response.headers.get('location') ?? '';
      // Either an error page, or a redirect carrying an error: never the sign-in interaction.
      expect(location.includes('/interaction/'), url).toBe(false);
    };
    const noPkce = new URL(authorizeUrl(challenge));
    noPkce.searchParams.delete('code_challenge');
    noPkce.searchParams.delete('code_challenge_method');
    await refused(noPkce.toString());
    await refused(authorizeUrl(challenge, { code_challenge_method: 'plain' }));
    for (const redirect of [
      `${REDIRECT}/`,
      REDIRECT.replace(String(port), String(port + 1)),
      REDIRECT.replace('127.0.0.1', 'localhost'),
      `${REDIRECT}/extra`,
    ]) {
      await refused(authorizeUrl(challenge, { redirect_uri: redirect }));
    }
  });
});
