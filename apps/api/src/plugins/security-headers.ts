import type { HelmetOptions } from 'helmet';
import type { AppConfig } from '../config/env.js';

/** Origins the browser may reach besides ours: the provider, the analytics sink and companion apps' logout pages. */
const origins = (urls: (string | null | undefined)[]) => [
  ...new Set(urls.filter((url): url is string => Boolean(url)).map((url) => new URL(url).origin)),
];

/**
 * Helmet's options for every answer's security headers. Every origin is named: the app ('self'), the identity
 * provider, the analytics sink, companion apps' logout pages and configured image hosts; nothing else.
 */
export function securityHeaderOptions(config: Pick<AppConfig, 'auth' | 'imageOrigins' | 'web'>): HelmetOptions {
  const issuer = config.auth.embedded ? null : config.auth.issuer;
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', ...origins(config.imageOrigins)],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...origins([issuer, config.web.analyticsUrl])],
        frameSrc: ["'self'", ...origins([issuer, ...config.web.companionApps.map((app) => app.logoutUrl)])],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'", ...origins([issuer])],
        // Our own pages only: silent renew loads the provider and /auth/silent-renew in a hidden frame.
        frameAncestors: ["'self'"],
        // No string ever reaches an HTML or script sink in the app's pages.
        requireTrustedTypesFor: ["'script'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  };
}
