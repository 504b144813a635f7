import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.js';

const defaults = { catalogFile: 'catalog/products.json' };
const load = (env: Record<string, string>) => loadConfig(env, defaults);

describe('configuration from the environment', () => {
  it('defaults to the embedded provider on localhost:8080 with nothing sent to analytics', () => {
    const config = load({});
    expect(config.port).toBe(8080);
    expect(config.auth.embedded).toBe(true);
    expect(config.auth.issuer).toBe('http://localhost:8080/oidc');
    expect(config.auth.logoutUrl).toBe(
      'http://localhost:8080/oidc/session/end?client_id={clientId}&post_logout_redirect_uri={returnTo}&id_token_hint={idTokenHint}',
    );
    expect(config.web).toEqual({
      analyticsUrl: null,
      companionApps: [],
      company: { name: 'UMS Health', termsUrl: '/legal/terms.html', privacyUrl: '/legal/privacy.html' },
    });
  });

  it('reads the analytics sink, companion apps and company links', () => {
    const config = load({
      ANALYTICS_URL: 'https://analytics.example.com/collect',
      LOGOUT_COMPANION_APPS: '[{"name":"Shop","logoutUrl":"https://shop.example.com/logout"}]',
      COMPANY_NAME: 'Example Labs',
      TERMS_URL: 'https://example.com/terms',
    });
    expect(config.web.analyticsUrl).toBe('https://analytics.example.com/collect');
    expect(config.web.companionApps).toEqual([{ name: 'Shop', logoutUrl: 'https://shop.example.com/logout' }]);
    expect(config.web.company).toMatchObject({ name: 'Example Labs', termsUrl: 'https://example.com/terms' });
  });

  it('names every bad variable in one error', () => {
    const attempt = () =>
      load({ PORT: 'eighty', LOGOUT_COMPANION_APPS: '{"name":"Shop"}', ANALYTICS_URL: 'nope', PRIVACY_URL: 'privacy' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT: must be a port number/);
    expect(attempt).toThrow(/LOGOUT_COMPANION_APPS: must be a JSON array of/);
    expect(attempt).toThrow(/ANALYTICS_URL: must be an absolute URL/);
    expect(attempt).toThrow(/PRIVACY_URL: must be an absolute URL or a path starting with \//);
  });

  it('requires an issuer for another provider and keeps demo passwords out of the message', () => {
    expect(() => load({ AUTH_PROVIDER: 'cognito' })).toThrow(/AUTH_ISSUER: required when AUTH_PROVIDER is cognito/);
    const attempt = () => load({ DEMO_ADMIN_PASSWORD: 'short' });
    expect(attempt).toThrow(/DEMO_ADMIN_PASSWORD: Password must be at least 8 characters long/);
    expect(attempt).not.toThrow(/short"/);
  });
});
