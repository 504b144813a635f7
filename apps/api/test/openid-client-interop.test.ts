import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { dpopKey } from '@ums/testkit/dpop';
import { browser, signIn } from '@ums/testkit/oidc-browser';
import { SignJWT } from 'jose';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { createAccountService } from '../src/identity/accounts.service.js';
import { providerApp } from './oidc-client.js';
import { waitFor } from './wait-for.js';

// A standard OpenID client, as an integrator would use it, against the real server: discovery, authorization code
// with PKCE and DPoP, userinfo, refresh, revocation and RP-initiated logout.
const server = await providerApp();
const { base, database } = server;
const PASSWORD = 'Interop-Pass-2026!';
const email = `interop-${randomBytes(4).toString('hex')}@example.com`;
await createAccountService({ db: database.db }).add({
  email,
  password: PASSWORD,
  firstName: 'Ines',
  lastName: 'Okoro',
});

const discover = () =>
  client.discovery(new URL(`${base}/oidc`), 'ums-web', undefined, client.None(), {
    // The test server speaks http on loopback; production is https.
    execute: [client.allowInsecureRequests],
  });

/** A DPoP proof (RFC 9449) made with the client's key pair, for a call the client library does not make itself. */
async function proof(
  keyPair: Awaited<ReturnType<typeof client.randomDPoPKeyPair>>,
  method: string,
  url: string,
  accessToken: string,
) {
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', keyPair.publicKey);
  return new SignJWT({
    jti: randomUUID(),
    htm: method,
    htu: url,
    ath: createHash('sha256').update(accessToken).digest('base64url'),
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: { kty: kty!, crv: crv!, x: x!, y: y! } })
    .setIssuedAt()
    .sign(keyPair.privateKey);
}

/** Drives our sign-in page as a browser would, from the authorization address to the redirect with the code. */
async function signInAt(authorization: URL): Promise<{ callback: URL; go: ReturnType<typeof browser> }> {
  const go = browser();
  let response = await go(authorization.toString());
  const page = await go(new URL(response.headers.get('location')!, base).toString());
  const action = /action="([^"]+)"/.exec(await page.text())![1]!;
  response = await go(new URL(action, base).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password: PASSWORD }).toString(),
  });
  for (let hops = 0; hops < 6; hops++) {
    const location = new URL(response.headers.get('location')!, base);
    if (location.toString().startsWith(server.redirect)) return { callback: location, go };
    response = await go(location.toString());
  }
  throw new Error('the sign-in never came back to the redirect address');
}

describe('a standard OpenID client (openid-client) against the embedded provider', () => {
  it('signs in with code + PKCE + DPoP, reads userinfo, refreshes, revokes and signs out', async () => {
    const config = await discover();
    expect(config.serverMetadata().userinfo_endpoint).toBe(`${base}/oidc/me`);
    const keyPair = await client.randomDPoPKeyPair('ES256');
    const dpop = client.getDPoPHandle(config, keyPair);

    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const authorization = client.buildAuthorizationUrl(config, {
      redirect_uri: server.redirect,
      scope: 'openid email phone profile',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const { callback, go } = await signInAt(authorization);
    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, expectedState: state },
      undefined,
      { DPoP: dpop },
    );
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    const subject = tokens.claims()!.sub;

    // OpenID Connect Core 5.3: the access token of the authentication request opens userinfo.
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, subject, { DPoP: dpop });
    expect(userinfo).toMatchObject({
      sub: subject,
      email,
      email_verified: true,
      name: 'Ines Okoro',
      given_name: 'Ines',
      family_name: 'Okoro',
      groups: [],
    });
    // The same token still opens the API (its audience), with a proof of the same key.
    const details = `${base}/api/userdetails/`;
    const api = await fetch(details, {
      headers: {
        authorization: `DPoP ${tokens.access_token}`,
        dpop: await proof(keyPair, 'GET', details, tokens.access_token),
      },
    });
    expect(api.status).toBe(200);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: dpop });
    expect((await client.fetchUserInfo(config, refreshed.access_token, subject, { DPoP: dpop })).sub).toBe(subject);

    await client.tokenRevocation(config, refreshed.refresh_token!);
    await expect(
      client.refreshTokenGrant(config, refreshed.refresh_token!, undefined, { DPoP: dpop }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    // RP-initiated logout with the ID token as hint: the provider asks the browser to confirm, then returns.
    const endSession = client.buildEndSessionUrl(config, {
      id_token_hint: refreshed.id_token!,
      post_logout_redirect_uri: `${base}/`,
    });
    const confirm = await go(endSession.toString());
    expect(confirm.status).toBe(200);
    const form = await confirm.text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(form)![1]!;
    const done = await go(`${base}/oidc/session/end/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${base}/`);
    // The session has ended: its tokens no longer open userinfo.
    const after = await waitFor(
      () =>
        client.fetchUserInfo(config, refreshed.access_token, subject, { DPoP: dpop }).then(
          () => 'accepted',
          (error: unknown) => String((error as { status?: number }).status ?? error),
        ),
      (outcome) => outcome !== 'accepted',
    );
    expect(after).toBe('401');
  });

  it("userinfo answers the web client's token with its proof, and refuses it without one or as a bearer token", async () => {
    const me = `${base}/oidc/me`;
    const key = await dpopKey();
    const bound = await signIn(base, email, PASSWORD, { dpop: key });
    const proven = await fetch(me, {
      headers: { authorization: `DPoP ${bound.access_token}`, dpop: key.proof('GET', me, bound.access_token) },
    });
    expect(proven.status).toBe(200);
    expect(proven.headers.get('cache-control')).toBe('no-store');
    const claims = (await proven.json()) as Record<string, unknown>;
    expect(claims).toMatchObject({ email, given_name: 'Ines', email_verified: true });
    // A claim the account does not have is left out, not sent empty.
    expect(claims).not.toHaveProperty('phone_number');
    const posted = await fetch(me, {
      method: 'POST',
      headers: { authorization: `DPoP ${bound.access_token}`, dpop: key.proof('POST', me, bound.access_token) },
    });
    expect(posted.status).toBe(200);

    const unproven = await fetch(me, { headers: { authorization: `DPoP ${bound.access_token}` } });
    expect(unproven.status).toBe(401);
    expect(unproven.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof"/);
    const asBearer = await fetch(me, { headers: { authorization: `Bearer ${bound.access_token}` } });
    expect(asBearer.status).toBe(401);

    const none = await fetch(me);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });
});
