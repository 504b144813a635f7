import { describe, expect, it } from 'vitest';
import { buildLogoutUrl } from './logout-url.js';

const embedded =
  'http://localhost:8080/oidc/session/end?client_id={clientId}&post_logout_redirect_uri={returnTo}&id_token_hint={idTokenHint}';

describe("the provider's logout address", () => {
  it('carries the client id, the return address and the ID token hint, encoded', () => {
    expect(
      buildLogoutUrl(embedded, { clientId: 'ums-web', returnTo: 'http://localhost:8080/', idTokenHint: 'a.b.c' }),
    ).toBe(
      'http://localhost:8080/oidc/session/end?client_id=ums-web&post_logout_redirect_uri=http%3A%2F%2Flocalhost%3A8080%2F&id_token_hint=a.b.c',
    );
  });

  it('drops the hint parameter when no ID token is known', () => {
    expect(buildLogoutUrl(embedded, { clientId: 'ums-web', returnTo: 'http://x/', idTokenHint: null })).toBe(
      'http://localhost:8080/oidc/session/end?client_id=ums-web&post_logout_redirect_uri=http%3A%2F%2Fx%2F',
    );
    expect(
      buildLogoutUrl('https://p/logout?id_token_hint={idTokenHint}&client_id={clientId}', {
        clientId: 'c',
        returnTo: 'r',
        idTokenHint: null,
      }),
    ).toBe('https://p/logout?client_id=c');
  });

  it("fills Cognito's form", () => {
    expect(
      buildLogoutUrl('https://auth.example.com/logout?client_id={clientId}&logout_uri={returnTo}', {
        clientId: 'abc',
        returnTo: 'https://app.example.com/',
        idTokenHint: 'ignored',
      }),
    ).toBe('https://auth.example.com/logout?client_id=abc&logout_uri=https%3A%2F%2Fapp.example.com%2F');
  });
});
