import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '../src/plugins/auth.js';
import { AUDIENCE } from './helper.js';

/** A stand-in identity provider on loopback: discovery document and a key set that can rotate. */
let jwks: { keys: JWK[] } = { keys: [] };
let jwksFetches = 0;
/** While true the provider is unreachable: every connection is dropped. */
let down = false;
/** What the discovery document advertises in id_token_signing_alg_values_supported (omitted when undefined). */
let advertised: string[] | undefined;
const server = http.createServer((request, response) => {
  if (down) {
    request.socket.destroy();
    return;
  }
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  response.setHeader('content-type', 'application/json');
  if (request.url === '/.well-known/openid-configuration') {
    response.end(
      JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks`, id_token_signing_alg_values_supported: advertised }),
    );
  } else if (request.url === '/jwks') {
    jwksFetches += 1;
    response.end(JSON.stringify(jwks));
  } else {
    response.statusCode = 404;
    response.end('{}');
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function key(kid: string) {
  const pair = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const sign = (sub: string, options: { audience?: string | null } = {}) => {
    const jwt = new SignJWT({ groups: ['Admin'], client_id: 'ums-web' })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
      .setSubject(sub)
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime('5m');
    if (options.audience !== null) jwt.setAudience(options.audience ?? AUDIENCE);
    return jwt.sign(pair.privateKey);
  };
  return { jwk, sign };
}

const config = {
  embedded: false,
  provider: 'oidc' as const,
  cognitoEndpoint: undefined,
  logoutUrl: '',
  forgotPasswordUrl: null,
  changeEmailUrl: null,
  issuer,
  jwksUri: undefined,
  audience: AUDIENCE,
  clientId: 'ums-web',
  groupsClaim: 'groups',
  roleClaim: 'custom:role',
  roleGroups: { Admin: 'Admin', Support: 'Support', Catalog: 'Catalog' },
  mfaRequiredGroups: [] as string[],
  stepUpMaxAge: 300,
  dpopBoundClients: [],
};

describe("verification against the issuer's JWKS", () => {
  it('discovers the key set, caches it, and refetches when a token names an unknown key id', async () => {
    const first = await key('k1');
    jwks = { keys: [first.jwk] };
    const verify = createTokenVerifier({ config, jwksCooldownMs: 0 });
    expect((await verify(await first.sign('a'))).roles).toEqual(['Admin']);
    await verify(await first.sign('b'));
    expect(jwksFetches).toBe(1);

    const rotated = await key('k2');
    jwks = { keys: [first.jwk, rotated.jwk] };
    expect((await verify(await rotated.sign('c'))).subject).toBe('c');
    expect(jwksFetches).toBe(2);
  });

  it('keeps verifying with cached keys while the key set is unreachable, and refuses unknown keys quickly', async () => {
    const cached = await key('k4');
    jwks = { keys: [cached.jwk] };
    const verify = createTokenVerifier({ config, jwksCooldownMs: 0 });
    await verify(await cached.sign('warm'));
    down = true;
    try {
      expect((await verify(await cached.sign('during-outage'))).subject).toBe('during-outage');
      const started = Date.now();
      await expect(verify(await (await key('k5')).sign('unknown-key'))).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      down = false;
    }
  });

  it('accepts only the algorithms the issuer advertises', async () => {
    const signer = await key('k6');
    jwks = { keys: [signer.jwk] };
    advertised = ['ES256'];
    try {
      const verify = createTokenVerifier({ config, jwksCooldownMs: 0 });
      await expect(verify(await signer.sign('rs256-not-advertised'))).rejects.toThrow(/alg/);
    } finally {
      advertised = undefined;
    }
    advertised = ['RS256', 'HS256'];
    try {
      const verify = createTokenVerifier({ config, jwksCooldownMs: 0 });
      expect((await verify(await signer.sign('rs256-advertised'))).subject).toBe('rs256-advertised');
    } finally {
      advertised = undefined;
    }
  });

  it('refuses a token without aud from an OpenID provider, and accepts one with our client_id only from Cognito', async () => {
    const signer = await key('k7');
    jwks = { keys: [signer.jwk] };
    const token = await signer.sign('no-aud', { audience: null });
    await expect(createTokenVerifier({ config, jwksCooldownMs: 0 })(token)).rejects.toThrow(/audience/);
    const cognito = createTokenVerifier({ config: { ...config, provider: 'cognito' }, jwksCooldownMs: 0 });
    expect((await cognito(token)).subject).toBe('no-aud');
  });

  it('fails closed, quickly, when the issuer cannot be reached with a cold cache', async () => {
    const verify = createTokenVerifier({ config: { ...config, issuer: 'http://127.0.0.1:9' } });
    const started = Date.now();
    const token = await (await key('k3')).sign('d');
    await expect(verify(token)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
