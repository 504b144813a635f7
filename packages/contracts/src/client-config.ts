import { z } from 'zod';

/** A companion website signed out through a hidden frame on the logout screen. */
export const companionAppSchema = z.object({ name: z.string().min(1), logoutUrl: z.url() });
export type CompanionApp = z.infer<typeof companionAppSchema>;

/** What the web app needs to know at run time: one build serves every environment. */
export const clientConfigSchema = z.object({
  authority: z.string(),
  clientId: z.string(),
  scope: z.string(),
  redirectPath: z.string(),
  silentRenewPath: z.string(),
  /**
   * Whether the provider may be asked in a hidden frame (prompt=none) to sign a new tab in from its session cookie.
   * True for the embedded provider (same origin); providers that refuse framing (Cognito) leave it false.
   */
  frameSignIn: z.boolean(),
  /** Whether tokens are bound to the browser's key with DPoP (RFC 9449): the embedded provider does it. */
  dpop: z.boolean(),
  /** Logout address form with {clientId}, {returnTo} and optionally {idTokenHint} placeholders. */
  logoutUrl: z.string(),
  /**
   * Where a member who forgot their password sets a new one: the embedded provider's page, or the provider's own
   * flow (AUTH_FORGOT_PASSWORD_URL); null when there is none to offer.
   */
  forgotPasswordUrl: z.string().nullable(),
  /**
   * How a member changes their email address: `in-app` (the embedded provider: Login Details asks for it and mails a
   * link), a URL of the provider's own flow (AUTH_CHANGE_EMAIL_URL, Cognito's say), or null when there is none.
   */
  emailChange: z.union([z.literal('in-app'), z.string().regex(/^https?:\/\//)]).nullable(),
  /**
   * Days between a member closing their account and its deletion (DELETION_GRACE_DAYS); null when accounts are kept
   * by another identity provider, where members close them.
   */
  deletionGraceDays: z.number().int().positive().nullable(),
  groupsClaim: z.string(),
  roleClaim: z.string(),
  adminGroup: z.string(),
  /** The groups of the Support and Catalog console roles (see roles.ts). */
  supportGroup: z.string(),
  catalogGroup: z.string(),
  apiBase: z.string(),
  /** The company's time zone (BUSINESS_TIME_ZONE): the admin overview's days begin at its midnight. */
  businessTimeZone: z.string(),
  /** Where page views are sent; null sends nothing anywhere. */
  analyticsUrl: z.string().nullable(),
  companionApps: z.array(companionAppSchema),
  company: z.object({ name: z.string(), termsUrl: z.string(), privacyUrl: z.string() }),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
