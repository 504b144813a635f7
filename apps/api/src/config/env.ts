import { isIP } from 'node:net';
import path from 'node:path';
import {
  companionAppSchema,
  DELETION_GRACE_DAYS,
  passwordProblemText,
  type CompanionApp,
  type RoleGroups,
} from '@ums/contracts';
import { z } from 'zod';
import { parseKeyEncryptionKey, type KeyEncryptionKey } from '../secrets/key-service.js';

const port = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be a whole number')
  .min(1, 'must be between 1 and 65535')
  .max(65535, 'must be between 1 and 65535');

const url = z.url({ error: 'must be an absolute URL such as http://localhost:8080' });

/** "10m", "600s", "1h" or a number of seconds. */
const duration = (min: number, max: number) =>
  z
    .string()
    .trim()
    .transform((value, ctx) => {
      const match = /^(\d+)\s*(s|m|h)?$/i.exec(value);
      const seconds = match ? Number(match[1]) * { s: 1, m: 60, h: 3600 }[(match[2] ?? 's').toLowerCase() as 's'] : NaN;
      if (!(seconds >= min && seconds <= max)) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a duration such as 10m, 600s or 1h, from ${min} s to ${max / 60} minutes`,
        });
        return z.NEVER;
      }
      return seconds;
    });

const positiveNumber = (unit: string, max: number) =>
  z.coerce
    .number({ error: `must be a number of ${unit}` })
    .positive(`must be a positive number of ${unit}`)
    .max(max, `must be at most ${max} ${unit}`);

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
/** Ranges wider than these hold far more than anyone's proxies: trusting one is trusting the whole Internet. */
const WIDEST_PROXY_PREFIX = { 4: 8, 6: 32 } as const;
const proxyRange = (entry: string) => {
  const [address = '', prefix] = entry.split('/');
  const family = isIP(address);
  return family && prefix !== undefined && /^\d+$/.test(prefix)
    ? { family: family as 4 | 6, bits: Number(prefix) }
    : null;
};
const tooWide = (entry: string) => {
  const range = proxyRange(entry);
  return range !== null && range.bits < WIDEST_PROXY_PREFIX[range.family];
};
const isProxyAddress = (entry: string) => {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
};

/**
 * Which proxies may say who the client is: none (false), the number of proxies in front of the server, or their
 * addresses and ranges. "true" would believe any X-Forwarded-For a client makes up, so it is refused.
 */
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((value, ctx): false | number | string[] => {
    if (value === 'false' || value === '0' || value === '') return false;
    if (/^\d+$/.test(value) && Number(value) <= 10) return Number(value);
    const entries = value.split(',').map((e) => e.trim());
    const wide = entries.filter(tooWide);
    if (value !== 'true' && wide.length === 0 && entries.every(isProxyAddress)) return entries;
    ctx.addIssue({
      code: 'custom',
      message:
        wide.length > 0
          ? `${wide.join(', ')} would trust a forwarded address from almost anywhere, as true would: name ranges no wider than /8 (IPv4) or /32 (IPv6), or give the number of proxies in front of the server`
          : value === 'true'
            ? 'true would trust a forwarded address that any client can make up: give the number of proxies in front of the server (such as 1) or their addresses (such as 10.0.0.0/8,192.168.1.10)'
            : 'must be false, a number of proxies from 1 to 10, or a comma-separated list of proxy addresses or CIDR ranges',
    });
    return z.NEVER;
  });

/**
 * The answer caches' shared budget by default: with the server's own memory at rest (about 140 MB), it keeps a busy
 * process within issue 39's 250 MB.
 */
export const CACHE_MEMORY_MB = 64;

/**
 * A request's headers and body must have come whole within this many seconds (408 and the connection closed past it),
 * so a client that sends slowly, or stops sending, cannot hold a connection for ever.
 */
export const REQUEST_TIMEOUT_SECONDS = 30;

/** Backups are sealed under a key derived from a passphrase of at least this length. */
export const MIN_BACKUP_PASSPHRASE_LENGTH = 12;

const policyPassword = z.string().superRefine((password, ctx) => {
  const problems = passwordProblemText(password);
  if (problems) ctx.addIssue({ code: 'custom', message: problems });
});

const envSchema = z.object({
  PORT: port.default(8080),
  METRICS_PORT: port.optional(),
  // The metrics tell how the service is used: they stay on this machine unless the operator opens them.
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  HOST: z.string().min(1).default('localhost'),
  PUBLIC_URL: url.optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection URL')
    .optional(),
  // The tables' owner: migrations and the application role's grants run with it, DATABASE_URL only uses rows.
  DATABASE_OWNER_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  CATALOG_FILE: z.string().min(1).optional(),
  AUTOLOGIN_URL: url.optional(),
  AUTH_ISSUER: url.optional(),
  AUTH_PROVIDER: z.enum(['embedded', 'cognito', 'oidc'], { error: 'must be embedded, cognito or oidc' }).optional(),
  COGNITO_ENDPOINT: url.optional(),
  AUTH_LOGOUT_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an absolute URL; {clientId}, {returnTo} and {idTokenHint} are filled in')
    .optional(),
  AUTH_FORGOT_PASSWORD_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an absolute URL; {clientId} and {returnTo} are filled in')
    .optional(),
  AUTH_CHANGE_EMAIL_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an absolute URL; {clientId} and {returnTo} are filled in')
    .optional(),
  AUTH_JWKS_URI: url.optional(),
  AUTH_AUDIENCE: z.string().min(1).optional(),
  AUTH_CLIENT_ID: z.string().min(1).default('ums-web'),
  AUTH_GROUPS_CLAIM: z.string().min(1).default('groups'),
  AUTH_ROLE_CLAIM: z.string().min(1).default('custom:role'),
  AUTH_ADMIN_GROUP: z.string().min(1).default('Admin'),
  // The console's least-privilege roles (README, "Console roles"): members' directory, and the catalog.
  AUTH_SUPPORT_GROUP: z.string().min(1).default('Support'),
  AUTH_CATALOG_GROUP: z.string().min(1).default('Catalog'),
  // How recent a sign-in the sensitive actions need (RFC 9470 step-up), in seconds.
  STEP_UP_MAX_AGE_SECONDS: positiveNumber('seconds', 24 * 3600).default(300),
  // Groups whose members must sign in with two factors (embedded provider): comma-separated, such as Admin.
  MFA_REQUIRED_GROUPS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((group) => group.trim())
        .filter(Boolean),
    ),
  BODY_LIMIT: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int()
    .min(1024, 'must be at least 1024 bytes')
    .max(10 * 1024 * 1024, 'must be at most 10485760 bytes')
    .default(102_400),
  REQUEST_TIMEOUT: z.coerce
    .number({ error: 'must be a whole number of seconds' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1 second')
    .max(600, 'must be at most 600 seconds')
    .default(REQUEST_TIMEOUT_SECONDS),
  TRUST_PROXY: trustProxy,
  // What the process's answer caches keep in all (catalog, audit trail, directory, members' lists, overview series).
  CACHE_MEMORY_MB: z.coerce
    .number({ error: 'must be a whole number of megabytes' })
    .int('must be a whole number of megabytes')
    .min(1, 'must be at least 1 MB')
    .max(65_536, 'must be at most 65536 MB')
    .default(CACHE_MEMORY_MB),
  ACCESS_TOKEN_TTL: duration(30, 3600).default(600),
  SESSION_IDLE_MINUTES: positiveNumber('minutes', 7 * 24 * 60).default(30),
  DELETION_GRACE_DAYS: z.coerce
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1 day (members must be able to change their mind)')
    .max(365, 'must be at most 365 days')
    .default(DELETION_GRACE_DAYS),
  SESSION_MAX_HOURS: positiveNumber('hours', 30 * 24).default(12),
  // The passkeys' relying party: PUBLIC_URL's host unless a parent domain is wanted (passkeys then work on its
  // subdomains too).
  PASSKEY_RP_ID: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'must be a host name, such as example.com (no scheme, port or path)')
    .optional(),
  IMAGE_ORIGINS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const list = (value ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
      const bad = list.filter((e) => !/^https?:\/\/[^/\s]+$/.test(e));
      if (bad.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a comma-separated list of origins such as https://images.example.com',
        });
        return z.NEVER;
      }
      return list;
    }),
  DEMO_ADMIN_PASSWORD: policyPassword.optional(),
  DEMO_MEMBER_PASSWORD: policyPassword.optional(),
  ANALYTICS_URL: url.optional(),
  LOGOUT_COMPANION_APPS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value?.trim()) return [];
      try {
        const parsed = z.array(companionAppSchema).safeParse(JSON.parse(value));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of {"name": "...", "logoutUrl": "https://..."}' });
      return z.NEVER;
    }),
  COMPANY_NAME: z.string().trim().min(1, 'must not be empty').default('UMS Health'),
  // The company's time zone: the admin overview's days, weeks and months begin at its midnight.
  BUSINESS_TIME_ZONE: z
    .string()
    .default('America/New_York')
    .refine(isTimeZone, 'must be an IANA time zone name, such as America/New_York or Europe/Berlin'),
  TERMS_URL: z
    .string()
    .regex(/^(https?:\/\/|\/)\S*$/, 'must be an absolute URL or a path starting with /')
    .default('/legal/terms.html'),
  PRIVACY_URL: z
    .string()
    .regex(/^(https?:\/\/|\/)\S*$/, 'must be an absolute URL or a path starting with /')
    .default('/legal/privacy.html'),
  SMTP_URL: z
    .string()
    .regex(
      /^smtps?:\/\/[^\s/]+(:\d+)?\/?(\?\S*)?$/,
      'must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com:465',
    )
    .optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .regex(/^([^<>]*<)?[^\s@<>]+@[^\s@<>]+>?$/, 'must be an address such as "UMS Health <no-reply@example.com>"')
    .optional(),
  NODE_ENV: z.string().optional(),
  API_DOCS: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  // Seals backups (cli backup) and opens them (cli restore); never echoed in an error.
  BACKUP_PASSPHRASE: z
    .string()
    .min(MIN_BACKUP_PASSPHRASE_LENGTH, `must be at least ${MIN_BACKUP_PASSPHRASE_LENGTH} characters`)
    .optional(),
  // The key-encryption key for secrets at rest; never echoed in an error.
  SECRETS_KEY: z
    .string()
    .refine((text) => parseKeyEncryptionKey(text) !== undefined, {
      message: 'must be 32 random bytes written as base64, base64url or hex (e.g. openssl rand -base64 32)',
    })
    .optional(),
  // The key before SECRETS_KEY, still accepted while `cli secrets rotate` rewraps what it sealed; never echoed.
  SECRETS_KEY_PREVIOUS: z
    .string()
    .refine((text) => parseKeyEncryptionKey(text) !== undefined, {
      message: 'must be 32 random bytes written as base64, base64url or hex (the key SECRETS_KEY replaced)',
    })
    .optional(),
  SECRETS_KEY_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface AppConfig {
  port: number;
  /** Where GET /metrics answers (its own port, never the public one); undefined: no metrics served. */
  metricsPort: number | undefined;
  /** The address the metrics port listens on (this machine only, unless METRICS_HOST opens it). */
  metricsHost: string;
  /** What the process's answer caches keep in all, in bytes (CACHE_MEMORY_MB). */
  cacheMemoryBytes: number;
  host: string;
  /** The passphrase backups are sealed with (cli backup and restore); none: the CLI refuses to write one. */
  backupPassphrase: string | undefined;
  /** The key-encryption key from SECRETS_KEY, if given; else read from secretsKeyFile (see secrets/secrets-key.ts). */
  secretsKey: KeyEncryptionKey | undefined;
  /** SECRETS_KEY_PREVIOUS: opens data keys not yet rewrapped under SECRETS_KEY. */
  secretsKeyPrevious: KeyEncryptionKey | undefined;
  /** SECRETS_KEY_FILE, or DATA_DIR/secrets.key (generated on first start) when neither variable is set. */
  secretsKeyFile: string;
  /** Whether SECRETS_KEY_FILE named the file (it must exist then) rather than the DATA_DIR default. */
  secretsKeyFileNamed: boolean;
  /** Whether /api/docs serves the OpenAPI document and its page: API_DOCS, else on unless NODE_ENV is production. */
  apiDocs: boolean;
  publicUrl: string;
  databaseUrl: string | undefined;
  /** DATABASE_OWNER_URL: migrations and grants run as this role, the server's pool as DATABASE_URL's (decision 025). */
  databaseOwnerUrl: string | undefined;
  dataDir: string;
  catalogFile: string;
  autologinUrl: string | undefined;
  auth: {
    /** The embedded OpenID provider serves sign-in unless AUTH_ISSUER names another provider. */
    embedded: boolean;
    provider: 'embedded' | 'cognito' | 'oidc';
    /** Cognito's API endpoint, derived from the issuer unless COGNITO_ENDPOINT is set. */
    cognitoEndpoint: string | undefined;
    /** The provider's logout address; {clientId}, {returnTo} and {idTokenHint} are filled in by the web app. */
    logoutUrl: string;
    /**
     * The "Forgot your password?" page: the embedded provider's, or AUTH_FORGOT_PASSWORD_URL (Cognito's hosted
     * forgotPassword page, say) with {clientId} and {returnTo} (the app's address) filled in, or none.
     */
    forgotPasswordUrl: string | null;
    /**
     * Where a member changes their email address with another provider: AUTH_CHANGE_EMAIL_URL with {clientId} and
     * {returnTo} filled in, or none. The embedded provider changes it in the app (POST /api/me/email-change).
     */
    changeEmailUrl: string | null;
    issuer: string;
    jwksUri: string | undefined;
    audience: string;
    clientId: string;
    groupsClaim: string;
    roleClaim: string;
    /** The group each console role is carried as (AUTH_ADMIN_GROUP, AUTH_SUPPORT_GROUP, AUTH_CATALOG_GROUP). */
    roleGroups: RoleGroups;
    /**
     * Groups whose members sign in with two factors (MFA_REQUIRED_GROUPS): asked to set one up right after the
     * password, and refused that group's routes without `mfa` in the token's `amr`.
     */
    mfaRequiredGroups: string[];
    /** Sensitive actions need a sign-in at most this many seconds old (STEP_UP_MAX_AGE_SECONDS, RFC 9470). */
    stepUpMaxAge: number;
    /**
     * The clients whose tokens are always bound to a key with DPoP (RFC 9449): the embedded provider refuses them a
     * token without a proof, and the API refuses their tokens without `cnf.jkt`. The embedded provider's web client
     * is; another provider's clients (Cognito has no DPoP) are not, and keep bearer tokens.
     */
    dpopBoundClients: string[];
  };
  web: {
    analyticsUrl: string | null;
    companionApps: CompanionApp[];
    company: { name: string; termsUrl: string; privacyUrl: string };
  };
  /** The company's time zone (BUSINESS_TIME_ZONE): the admin overview's buckets begin at its midnight. */
  businessTimeZone: string;
  /** Signed-in sessions of the embedded provider (the browser's session with the provider, not a token). */
  sessions: {
    /** Access tokens live this long (seconds); refresh tokens renew them. */
    accessTokenTtl: number;
    /** A session nobody used for this long ends (seconds). */
    idle: number;
    /** A session ends this long after sign-in whatever happens (seconds). */
    max: number;
  };
  /** A closed account is purged this many days after the member closed it. */
  deletionGraceDays: number;
  /** Origins outside the app that catalog images may come from. */
  imageOrigins: string[];
  /** The passkeys' relying party id (PASSKEY_RP_ID, or PUBLIC_URL's host) and the origin their ceremonies run on. */
  passkeys: { rpId: string; origin: string };
  bodyLimit: number;
  /** The time a request's headers and body have to arrive whole (REQUEST_TIMEOUT), in milliseconds. */
  requestTimeoutMs: number;
  /** Fastify's trust-proxy setting: false, a hop count or the proxies' addresses. */
  trustProxy: false | number | string[];
  logLevel: string;
  /** Alerts to members: through SMTP_URL, or written as .eml files under DATA_DIR/outbox. */
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string };
  demoPasswords: { admin: string | undefined; member: string | undefined };
}

export class ConfigError extends Error {}

/** Whether the name is a time zone this runtime knows (the IANA database, as PostgreSQL's). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.includes('/') || name === 'UTC';
  } catch {
    return false;
  }
}

/** Parses the environment once; every missing or invalid variable is named in one error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaults: { catalogFile: string }): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      // Passwords, and the URLs that may carry one, are never echoed into a log.
      const shown = /PASSWORD|PASSPHRASE|^SECRETS_KEY(_PREVIOUS)?$|^DATABASE_(OWNER_)?URL$|^SMTP_URL$/.test(name)
        ? ''
        : ` (got ${JSON.stringify(env[name])})`;
      return `  ${name}: ${issue.message}${shown}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const provider = e.AUTH_PROVIDER ?? (e.AUTH_ISSUER === undefined ? 'embedded' : 'oidc');
  if (provider !== 'embedded' && !e.AUTH_ISSUER) {
    throw new ConfigError(`Invalid configuration:\n  AUTH_ISSUER: required when AUTH_PROVIDER is ${provider}`);
  }
  if (provider === 'embedded' && e.AUTH_CHANGE_EMAIL_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  AUTH_CHANGE_EMAIL_URL: the embedded provider changes addresses in the app; set it only with AUTH_PROVIDER=cognito or oidc',
    );
  }
  if (e.SESSION_IDLE_MINUTES * 60 > e.SESSION_MAX_HOURS * 3600) {
    throw new ConfigError(
      `Invalid configuration:\n  SESSION_IDLE_MINUTES: must not be longer than SESSION_MAX_HOURS (${e.SESSION_MAX_HOURS} hours)`,
    );
  }
  if (e.DATABASE_OWNER_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_OWNER_URL: needs DATABASE_URL too (the application role the server connects as)',
    );
  }
  if (e.METRICS_PORT === e.PORT) {
    throw new ConfigError(
      `Invalid configuration:\n  METRICS_PORT: must differ from PORT (${e.PORT}): the metrics are never served on the public port`,
    );
  }
  const roleGroupVariables = {
    AUTH_ADMIN_GROUP: e.AUTH_ADMIN_GROUP,
    AUTH_SUPPORT_GROUP: e.AUTH_SUPPORT_GROUP,
    AUTH_CATALOG_GROUP: e.AUTH_CATALOG_GROUP,
  };
  const sharing = Object.entries(roleGroupVariables).filter(([name, group]) =>
    Object.entries(roleGroupVariables).some(([other, its]) => other !== name && its === group),
  );
  if (sharing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  ${sharing.map(([name]) => name).join(', ')}: each console role needs its own group (all name ${JSON.stringify(sharing[0]![1])})`,
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const host = new URL(publicUrl).hostname;
  const rpId = e.PASSKEY_RP_ID?.toLowerCase();
  if (rpId && host !== rpId && !host.endsWith(`.${rpId}`)) {
    throw new ConfigError(
      `Invalid configuration:\n  PASSKEY_RP_ID: must be PUBLIC_URL's host (${host}) or a domain it belongs to (got ${JSON.stringify(e.PASSKEY_RP_ID)})`,
    );
  }
  return {
    port: e.PORT,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    cacheMemoryBytes: e.CACHE_MEMORY_MB * 1024 * 1024,
    host: e.HOST,
    backupPassphrase: e.BACKUP_PASSPHRASE,
    secretsKey: e.SECRETS_KEY === undefined ? undefined : parseKeyEncryptionKey(e.SECRETS_KEY),
    secretsKeyPrevious:
      e.SECRETS_KEY_PREVIOUS === undefined ? undefined : parseKeyEncryptionKey(e.SECRETS_KEY_PREVIOUS),
    secretsKeyFile: path.resolve(e.SECRETS_KEY_FILE ?? path.join(e.DATA_DIR, 'secrets.key')),
    secretsKeyFileNamed: e.SECRETS_KEY_FILE !== undefined,
    apiDocs: e.API_DOCS ? e.API_DOCS === 'true' : e.NODE_ENV !== 'production',
    publicUrl,
    databaseUrl: e.DATABASE_URL,
    databaseOwnerUrl: e.DATABASE_OWNER_URL,
    dataDir: path.resolve(e.DATA_DIR),
    catalogFile: path.resolve(e.CATALOG_FILE ?? defaults.catalogFile),
    autologinUrl: e.AUTOLOGIN_URL,
    auth: {
      embedded: provider === 'embedded',
      provider,
      cognitoEndpoint:
        e.COGNITO_ENDPOINT ??
        (provider === 'cognito' && e.AUTH_ISSUER ? `${new URL(e.AUTH_ISSUER).origin}/` : undefined),
      issuer: (e.AUTH_ISSUER ?? `${publicUrl}/oidc`).replace(/\/+$/, ''),
      jwksUri: e.AUTH_JWKS_URI,
      audience: e.AUTH_AUDIENCE ?? `${publicUrl}/api`,
      clientId: e.AUTH_CLIENT_ID,
      logoutUrl:
        e.AUTH_LOGOUT_URL ??
        `${(e.AUTH_ISSUER ?? `${publicUrl}/oidc`).replace(/\/+$/, '')}/session/end?client_id={clientId}&post_logout_redirect_uri={returnTo}&id_token_hint={idTokenHint}`,
      forgotPasswordUrl: e.AUTH_FORGOT_PASSWORD_URL
        ? e.AUTH_FORGOT_PASSWORD_URL.replaceAll('{clientId}', encodeURIComponent(e.AUTH_CLIENT_ID)).replaceAll(
            '{returnTo}',
            encodeURIComponent(`${publicUrl}/`),
          )
        : provider === 'embedded'
          ? `${(e.AUTH_ISSUER ?? `${publicUrl}/oidc`).replace(/\/+$/, '')}/password/forgot`
          : null,
      changeEmailUrl: e.AUTH_CHANGE_EMAIL_URL
        ? e.AUTH_CHANGE_EMAIL_URL.replaceAll('{clientId}', encodeURIComponent(e.AUTH_CLIENT_ID)).replaceAll(
            '{returnTo}',
            encodeURIComponent(`${publicUrl}/`),
          )
        : null,
      groupsClaim: e.AUTH_GROUPS_CLAIM,
      roleClaim: e.AUTH_ROLE_CLAIM,
      roleGroups: { Admin: e.AUTH_ADMIN_GROUP, Support: e.AUTH_SUPPORT_GROUP, Catalog: e.AUTH_CATALOG_GROUP },
      mfaRequiredGroups: e.MFA_REQUIRED_GROUPS,
      stepUpMaxAge: e.STEP_UP_MAX_AGE_SECONDS,
      dpopBoundClients: provider === 'embedded' ? [e.AUTH_CLIENT_ID] : [],
    },
    web: {
      analyticsUrl: e.ANALYTICS_URL ?? null,
      companionApps: e.LOGOUT_COMPANION_APPS,
      company: { name: e.COMPANY_NAME, termsUrl: e.TERMS_URL, privacyUrl: e.PRIVACY_URL },
    },
    businessTimeZone: e.BUSINESS_TIME_ZONE,
    sessions: {
      accessTokenTtl: e.ACCESS_TOKEN_TTL,
      idle: Math.round(e.SESSION_IDLE_MINUTES * 60),
      max: Math.round(e.SESSION_MAX_HOURS * 3600),
    },
    deletionGraceDays: e.DELETION_GRACE_DAYS,
    imageOrigins: e.IMAGE_ORIGINS,
    passkeys: {
      rpId: rpId ?? host,
      origin: new URL(publicUrl).origin,
    },
    bodyLimit: e.BODY_LIMIT,
    requestTimeoutMs: e.REQUEST_TIMEOUT * 1000,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `"${e.COMPANY_NAME.replace(/["\\]/g, '')}" <no-reply@${new URL(publicUrl).hostname}>`,
      outboxDir: path.join(path.resolve(e.DATA_DIR), 'outbox'),
    },
    demoPasswords: { admin: e.DEMO_ADMIN_PASSWORD, member: e.DEMO_MEMBER_PASSWORD },
  };
}
