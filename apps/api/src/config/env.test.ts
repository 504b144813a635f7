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

  it("offers the embedded provider's forgotten-password page, or Cognito's hosted one when AUTH_FORGOT_PASSWORD_URL names it", () => {
    expect(load({}).auth.forgotPasswordUrl).toBe('http://localhost:8080/oidc/password/forgot');
    const cognito = load({
      AUTH_PROVIDER: 'cognito',
      AUTH_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Abc',
      PUBLIC_URL: 'https://members.example.com',
      AUTH_FORGOT_PASSWORD_URL:
        'https://ums.auth.eu-west-1.amazoncognito.com/forgotPassword?client_id={clientId}&response_type=code&redirect_uri={returnTo}',
    });
    expect(cognito.auth.forgotPasswordUrl).toBe(
      'https://ums.auth.eu-west-1.amazoncognito.com/forgotPassword?client_id=ums-web&response_type=code&redirect_uri=https%3A%2F%2Fmembers.example.com%2F',
    );
    // Another provider without the variable: nothing to offer (its own sign-in page has its own way).
    expect(load({ AUTH_ISSUER: 'https://id.example.com' }).auth.forgotPasswordUrl).toBeNull();
    expect(() => load({ AUTH_FORGOT_PASSWORD_URL: 'forgot.html' })).toThrow(
      'AUTH_FORGOT_PASSWORD_URL: must be an absolute URL; {clientId} and {returnTo} are filled in',
    );
  });

  it("counts the overview's days in America/New_York unless BUSINESS_TIME_ZONE names another zone, and refuses one that is none", () => {
    expect(load({}).businessTimeZone).toBe('America/New_York');
    expect(load({ BUSINESS_TIME_ZONE: 'Europe/Berlin' }).businessTimeZone).toBe('Europe/Berlin');
    for (const zone of ['Mars/Olympus_Mons', 'EST5']) {
      expect(() => load({ BUSINESS_TIME_ZONE: zone })).toThrow(
        'BUSINESS_TIME_ZONE: must be an IANA time zone name, such as America/New_York or Europe/Berlin',
      );
    }
  });

  it('carries the console roles as the groups Admin, Support and Catalog unless named otherwise, each role its own group', () => {
    expect(load({}).auth.roleGroups).toEqual({ Admin: 'Admin', Support: 'Support', Catalog: 'Catalog' });
    expect(
      load({ AUTH_ADMIN_GROUP: 'ums-admins', AUTH_SUPPORT_GROUP: 'ums-support', AUTH_CATALOG_GROUP: 'ums-catalog' })
        .auth.roleGroups,
    ).toEqual({ Admin: 'ums-admins', Support: 'ums-support', Catalog: 'ums-catalog' });
    expect(() => load({ AUTH_SUPPORT_GROUP: 'Admin' })).toThrow(
      'AUTH_ADMIN_GROUP, AUTH_SUPPORT_GROUP: each console role needs its own group (all name "Admin")',
    );
    expect(() => load({ AUTH_CATALOG_GROUP: 'Support' })).toThrow(
      'AUTH_SUPPORT_GROUP, AUTH_CATALOG_GROUP: each console role needs its own group (all name "Support")',
    );
  });

  it("changes the email in the app with the embedded provider, or leads to the provider's own page when AUTH_CHANGE_EMAIL_URL names it", () => {
    expect(load({}).auth.changeEmailUrl).toBeNull();
    const cognito = load({
      AUTH_PROVIDER: 'cognito',
      AUTH_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Abc',
      PUBLIC_URL: 'https://members.example.com',
      AUTH_CHANGE_EMAIL_URL: 'https://id.example.com/account/email?client_id={clientId}&return_to={returnTo}',
    });
    expect(cognito.auth.changeEmailUrl).toBe(
      'https://id.example.com/account/email?client_id=ums-web&return_to=https%3A%2F%2Fmembers.example.com%2F',
    );
    expect(() => load({ AUTH_CHANGE_EMAIL_URL: 'email.html' })).toThrow(
      'AUTH_CHANGE_EMAIL_URL: must be an absolute URL; {clientId} and {returnTo} are filled in',
    );
    expect(() => load({ AUTH_CHANGE_EMAIL_URL: 'https://id.example.com/account/email' })).toThrow(
      'AUTH_CHANGE_EMAIL_URL: the embedded provider changes addresses in the app; set it only with AUTH_PROVIDER=cognito or oidc',
    );
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

  it('serves metrics only on a port of their own, off unless METRICS_PORT is set', () => {
    expect(load({}).metricsPort).toBeUndefined();
    expect(load({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(load({ HOST: '0.0.0.0' }).metricsHost).toBe('127.0.0.1');
    expect(load({ METRICS_HOST: '10.0.0.5' }).metricsHost).toBe('10.0.0.5');
    expect(() => load({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      /METRICS_PORT: must differ from PORT \(8080\): the metrics are never served on the public port/,
    );
    expect(() => load({ METRICS_PORT: 'http' })).toThrow(/METRICS_PORT: must be a port number/);
  });

  it('refuses TRUST_PROXY=true and takes a hop count or proxy addresses instead', () => {
    expect(() => load({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: true would trust a forwarded address that any client can make up: give the number of proxies/,
    );
    expect(() => load({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: must be false, a number of proxies/);
    expect(() => load({ TRUST_PROXY: 'proxy.internal' })).toThrow(/TRUST_PROXY: must be false, a number of proxies/);
    // The whole Internet, or a large part of it, is as bad as true.
    for (const wide of ['0.0.0.0/0', '::/0', '10.0.0.0/8,64.0.0.0/2', '2001:db8::/31']) {
      expect(() => load({ TRUST_PROXY: wide }), wide).toThrow(
        /TRUST_PROXY: .* would trust a forwarded address from almost anywhere, as true would: name ranges no wider than \/8 \(IPv4\) or \/32 \(IPv6\)/,
      );
    }
    expect(load({ TRUST_PROXY: '10.0.0.0/8,fd00::/32' }).trustProxy).toEqual(['10.0.0.0/8', 'fd00::/32']);
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.10,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.10',
      '::1',
      'loopback',
    ]);
  });

  it('reads token and session lifetimes, and refuses ones that make no sense', () => {
    expect(load({}).sessions).toEqual({ accessTokenTtl: 600, idle: 30 * 60, max: 12 * 3600 });
    expect(load({ ACCESS_TOKEN_TTL: '5m', SESSION_IDLE_MINUTES: '15', SESSION_MAX_HOURS: '8' }).sessions).toEqual({
      accessTokenTtl: 300,
      idle: 15 * 60,
      max: 8 * 3600,
    });
    expect(load({ ACCESS_TOKEN_TTL: '900' }).sessions.accessTokenTtl).toBe(900);
    expect(() => load({ ACCESS_TOKEN_TTL: '2h' })).toThrow(/ACCESS_TOKEN_TTL: must be a duration such as 10m/);
    expect(() => load({ ACCESS_TOKEN_TTL: 'soon' })).toThrow(/ACCESS_TOKEN_TTL: must be a duration such as 10m/);
    expect(() => load({ SESSION_IDLE_MINUTES: '0' })).toThrow(
      /SESSION_IDLE_MINUTES: must be a positive number of minutes/,
    );
    expect(() => load({ SESSION_IDLE_MINUTES: '600', SESSION_MAX_HOURS: '2' })).toThrow(
      /SESSION_IDLE_MINUTES: must not be longer than SESSION_MAX_HOURS \(2 hours\)/,
    );
  });

  it('reads how long a closed account waits before it is deleted, and refuses a grace period that is none', () => {
    expect(load({}).deletionGraceDays).toBe(30);
    expect(load({ DELETION_GRACE_DAYS: '14' }).deletionGraceDays).toBe(14);
    expect(() => load({ DELETION_GRACE_DAYS: '0' })).toThrow(
      /DELETION_GRACE_DAYS: must be at least 1 day \(members must be able to change their mind\)/,
    );
    expect(() => load({ DELETION_GRACE_DAYS: '2.5' })).toThrow(/DELETION_GRACE_DAYS: must be a whole number of days/);
    expect(() => load({ DELETION_GRACE_DAYS: 'soon' })).toThrow(/DELETION_GRACE_DAYS: must be a whole number of days/);
  });

  it('keeps 64 MB of answers in memory unless CACHE_MEMORY_MB says otherwise, and refuses a size that is none', () => {
    expect(load({}).cacheMemoryBytes).toBe(64 * 1024 * 1024);
    expect(load({ CACHE_MEMORY_MB: '256' }).cacheMemoryBytes).toBe(256 * 1024 * 1024);
    expect(() => load({ CACHE_MEMORY_MB: '0' })).toThrow(/CACHE_MEMORY_MB: must be at least 1 MB/);
    expect(() => load({ CACHE_MEMORY_MB: '1.5' })).toThrow(/CACHE_MEMORY_MB: must be a whole number of megabytes/);
    expect(() => load({ CACHE_MEMORY_MB: '64MB' })).toThrow(/CACHE_MEMORY_MB: must be a whole number of megabytes/);
  });
});

describe('REQUEST_TIMEOUT', () => {
  it('gives a request 30 s to arrive whole unless REQUEST_TIMEOUT says otherwise, and refuses a time that is none', () => {
    expect(load({}).requestTimeoutMs).toBe(30_000);
    expect(load({ REQUEST_TIMEOUT: '5' }).requestTimeoutMs).toBe(5000);
    expect(() => load({ REQUEST_TIMEOUT: '0' })).toThrow(/REQUEST_TIMEOUT: must be at least 1 second/);
    expect(() => load({ REQUEST_TIMEOUT: '601' })).toThrow(/REQUEST_TIMEOUT: must be at most 600 seconds/);
    expect(() => load({ REQUEST_TIMEOUT: '2.5' })).toThrow(/REQUEST_TIMEOUT: must be a whole number of seconds/);
    expect(() => load({ REQUEST_TIMEOUT: '30s' })).toThrow(/REQUEST_TIMEOUT: must be a whole number of seconds/);
  });
});

describe('SECRETS_KEY', () => {
  it('accepts 32 bytes in hex, base64 or base64url and defaults the key file to DATA_DIR/secrets.key', () => {
    const bytes = Buffer.alloc(32, 9);
    for (const text of [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')]) {
      expect(load({ SECRETS_KEY: text }).secretsKey?.key.equals(bytes)).toBe(true);
    }
    expect(load({ DATA_DIR: '/srv/ums' }).secretsKeyFile).toBe('/srv/ums/secrets.key');
    expect(load({ SECRETS_KEY_FILE: '/run/secrets/ums.key' }).secretsKeyFile).toBe('/run/secrets/ums.key');
  });

  it('reads DATABASE_OWNER_URL beside DATABASE_URL, refuses it alone, and never echoes either', () => {
    const urls = { DATABASE_URL: 'postgres://ums_app:a@db/ums', DATABASE_OWNER_URL: 'postgres://ums_owner:b@db/ums' };
    expect(load(urls)).toMatchObject({ databaseUrl: urls.DATABASE_URL, databaseOwnerUrl: urls.DATABASE_OWNER_URL });
    expect(load({}).databaseOwnerUrl).toBeUndefined();
    expect(() => load({ DATABASE_OWNER_URL: urls.DATABASE_OWNER_URL })).toThrow(
      /DATABASE_OWNER_URL: needs DATABASE_URL too/,
    );
    const attempt = () => load({ DATABASE_URL: urls.DATABASE_URL, DATABASE_OWNER_URL: 'mysql://owner:secret@db' });
    expect(attempt).toThrow(/DATABASE_OWNER_URL: must be a postgres:\/\/ or postgresql:\/\/ connection URL/);
    expect(attempt).not.toThrow(/secret/);
  });

  it('refuses a malformed key in one line naming the variable and the format, without echoing the value', () => {
    const error = (() => {
      try {
        load({ SECRETS_KEY: 'my-secret-but-short' });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('a malformed SECRETS_KEY was accepted');
    })();
    expect(error.message).toMatch(/SECRETS_KEY: must be 32 random bytes written as base64, base64url or hex/);
    expect(error.message).not.toContain('my-secret');
  });
});
