import { z } from 'zod';
import {
  BIOLOGICAL_SEXES,
  FREE_ITEMS_DEFAULT,
  MEMBERSHIP_LENGTH_DEFAULT,
  MEMBERSHIP_LENGTH_MAX,
  MEMBERSHIP_LENGTH_MIN,
} from './constants.js';
import { AUDIT_ENTITIES, type AuditEntity, type AuditEntry } from './audit.js';
import {
  DESCRIPTION_MAX_LENGTH,
  GROUP_NAME_PATTERN,
  GROUP_RULES,
  GROUPS_MAX,
  NAME_MAX_LENGTH,
  PRODUCT_REQUIRED,
} from './form-rules.js';
import { exportableListQuerySchema, pageSchema } from './lists-schema.js';
import { EMAIL_CHANGE_TEXTS, EMAIL_MAX_LENGTH, type EmailChangeStatus } from './self-service/email-change.js';
import {
  FACTOR_MESSAGES,
  PASSKEY_NAME_LABEL,
  PASSKEY_NAME_MAX,
  SECURITY_EVENTS,
  type DeviceSession,
  type RecoveryCodesIssued,
  type SecurityActivity,
  type SecurityFactors,
  type TotpSetup,
} from './security.js';
import {
  idParamSchema,
  idSchema,
  isOneLine,
  moneyOutput,
  moneySchema,
  oneLineMessage,
  optionalText,
  requiredText,
} from './common.js';

// ---- Products -------------------------------------------------------------------------------

export const productSchema = z.object({
  productId: z.number().int(),
  name: z.string(),
  retailPrice: moneyOutput,
  imageUrl: z.string().nullable(),
});
export type Product = z.infer<typeof productSchema>;

/** One entry of the catalog source (the JSON catalog file by default). */
export const catalogEntrySchema = z.object({
  productId: idSchema,
  name: requiredText('Name', 200),
  retailPrice: moneySchema,
  imageUrl: z.string().trim().max(2000).nullish(),
});
export const catalogSchema = z.array(catalogEntrySchema);

export const catalogRefreshResultSchema = z.object({
  added: z.number().int(),
  updated: z.number().int(),
  total: z.number().int(),
});
export type CatalogRefreshResult = z.infer<typeof catalogRefreshResultSchema>;

// ---- Discount packages ----------------------------------------------------------------------

export const discountPackageProductSchema = z.object({
  productId: z.number().int(),
  productName: z.string(),
  retailPrice: moneyOutput,
  price: moneyOutput.nullable(),
});

export const discountPackageSchema = z.object({
  discountPackageId: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  products: z.array(discountPackageProductSchema),
});
export type DiscountPackage = z.infer<typeof discountPackageSchema>;

export const discountPackageInputSchema = z.strictObject({
  discountPackageId: idSchema.optional(),
  name: requiredText('Name', NAME_MAX_LENGTH),
  description: optionalText('Description', DESCRIPTION_MAX_LENGTH, 'many'),
});
export type DiscountPackageInput = z.input<typeof discountPackageInputSchema>;

export const discountPackagePriceInputSchema = z.strictObject({
  discountPackageId: idSchema,
  productId: idSchema,
  price: moneySchema.nullable(),
});
export type DiscountPackagePriceInput = z.input<typeof discountPackagePriceInputSchema>;

export const discountPackageProductAddSchema = z.strictObject({
  discountPackageId: idSchema,
  productId: idSchema,
  price: moneySchema.nullable().optional(),
});

export const discountPackageProductKeySchema = z.strictObject({
  discountPackageId: idSchema,
  productId: idSchema,
});
export type DiscountPackageProductKey = z.input<typeof discountPackageProductKeySchema>;

// ---- Memberships ----------------------------------------------------------------------------

export const membershipPromotionalProductSchema = z.object({
  productId: z.number().int(),
  name: z.string(),
});

export const membershipSchema = z.object({
  membershipId: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  productId: z.number().int(),
  productName: z.string(),
  productRetailPrice: moneyOutput,
  discountPackageId: z.number().int().nullable(),
  discountPackageName: z.string().nullable(),
  numberOfFreeEligibleItems: z.number().int(),
  membershipLengthInMonths: z.number().int(),
  promotionalProducts: z.array(membershipPromotionalProductSchema),
});
export type Membership = z.infer<typeof membershipSchema>;

const wholeNumber = (label: string) =>
  z.number({ error: `${label} must be a whole number` }).int(`${label} must be a whole number`);

export const membershipInputSchema = z.strictObject({
  membershipId: idSchema.optional(),
  name: requiredText('Name', NAME_MAX_LENGTH),
  description: optionalText('Description', DESCRIPTION_MAX_LENGTH, 'many'),
  productId: idSchema
    .or(z.undefined())
    .refine((v) => v !== undefined, PRODUCT_REQUIRED)
    .transform((v) => v as number),
  discountPackageId: idSchema.nullish().transform((value) => value ?? null),
  numberOfFreeEligibleItems: wholeNumber('Number of free eligible items')
    .min(0, 'Number of free eligible items must be 0 or more')
    .max(10_000, 'Number of free eligible items must be at most 10000')
    .default(FREE_ITEMS_DEFAULT),
  membershipLengthInMonths: wholeNumber('Membership length')
    .min(MEMBERSHIP_LENGTH_MIN, 'Membership length must be between 1 and 120 months')
    .max(MEMBERSHIP_LENGTH_MAX, 'Membership length must be between 1 and 120 months')
    .default(MEMBERSHIP_LENGTH_DEFAULT),
});
export type MembershipInput = z.input<typeof membershipInputSchema>;

// ---- Promotional products -------------------------------------------------------------------

export const promotionalProductLinkSchema = z.strictObject({
  productId: idSchema,
  membershipId: idSchema,
});
export type PromotionalProductLink = z.infer<typeof promotionalProductLinkSchema>;

export const promotionalProductBatchSchema = z
  .array(promotionalProductLinkSchema)
  .min(1, 'Send at least one link')
  .max(1000, 'Send at most 1000 links at once');

export const promotionalProductSchema = z.object({
  productId: z.number().int(),
  membershipId: z.number().int(),
  productName: z.string(),
  membershipName: z.string(),
});
export type PromotionalProduct = z.infer<typeof promotionalProductSchema>;

export const membershipIdParamsSchema = z.object({ membershipId: idParamSchema });

// ---- User details ---------------------------------------------------------------------------

export const userDetailsSchema = z.object({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  biologicalSex: z.enum(BIOLOGICAL_SEXES).nullable(),
  birthdate: z.string().nullable().describe('YYYY-MM-DD'),
  phoneNumber: z.string().nullable(),
  streetAddress: z.string().nullable(),
  city: z.string().nullable(),
  countryRegion: z.string().nullable(),
  stateProvince: z.string().nullable(),
  postalCode: z.string().nullable(),
});
export type UserDetails = z.infer<typeof userDetailsSchema>;

const BIRTHDATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A calendar date "YYYY-MM-DD", optionally followed by a time part, which is dropped. */
export const birthdateSchema = z
  .string({ error: 'Birthdate must be a date such as 1990-04-23' })
  .trim()
  .transform((value, ctx) => {
    const match = BIRTHDATE_PATTERN.exec(value);
    const [year, month, day] = match ? [match[1], match[2], match[3]].map(Number) : [NaN, NaN, NaN];
    const date = new Date(Date.UTC(year ?? NaN, (month ?? NaN) - 1, day ?? NaN));
    const valid =
      match !== null &&
      date.getUTCFullYear() === year &&
      date.getUTCMonth() === (month ?? 0) - 1 &&
      date.getUTCDate() === day &&
      (year ?? 0) >= 1900 &&
      date.getTime() <= Date.now();
    if (!valid) {
      ctx.addIssue({
        code: 'custom',
        message: 'Birthdate must be a real date between 1900-01-01 and today, such as 1990-04-23',
      });
      return z.NEVER;
    }
    return value.slice(0, 10);
  });

export const userDetailsInputSchema = z.object({
  firstName: z
    .string({ error: 'First name must be text' })
    .trim()
    .max(100, 'First name must be at most 100 characters')
    .refine(isOneLine, oneLineMessage('First name'))
    .default(''),
  lastName: z
    .string({ error: 'Last name must be text' })
    .trim()
    .max(100, 'Last name must be at most 100 characters')
    .refine(isOneLine, oneLineMessage('Last name'))
    .default(''),
  email: z
    .union([z.literal(''), z.email('Email must be a valid email address').max(254)], {
      error: 'Email must be a valid email address',
    })
    .default(''),
  biologicalSex: z.enum(BIOLOGICAL_SEXES, { error: 'Biological sex must be Male or Female' }).nullish(),
  birthdate: birthdateSchema.nullish(),
  phoneNumber: optionalText('Phone number', 40),
  streetAddress: optionalText('Street address', 200),
  city: optionalText('City', 100),
  countryRegion: optionalText('Country/Region', 100),
  stateProvince: optionalText('State/Province', 100),
  postalCode: optionalText('Postal code', 20),
});
export type UserDetailsInput = z.input<typeof userDetailsInputSchema>;

// ---- Subscriptions and payment history ------------------------------------------------------

export const subscriptionSchema = z.object({
  subscriptionId: z.number().int(),
  pricePerInterval: moneyOutput,
  billingInterval: z.number().int(),
  billingPeriod: z.string(),
  products: z.array(z.object({ productName: z.string(), imageUrl: z.string().nullable() })),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const paymentHistoryEntrySchema = z.object({
  orderId: z.number().int(),
  totalAmount: moneyOutput,
  date: z.string().describe('ISO 8601 date and time'),
  status: z.string(),
  productNames: z.array(z.string()),
});
export type PaymentHistoryEntry = z.infer<typeof paymentHistoryEntrySchema>;

// ---- Diagnostics ----------------------------------------------------------------------------

export const authCheckSchema = z.object({
  subject: z.string(),
  email: z.string().nullable(),
  groups: z.array(z.string()),
});

export const autologinSchema = z.object({ url: z.string() });

// ---- Admin overview -------------------------------------------------------------------------

export const adminOverviewSchema = z.object({
  memberships: z.number().int(),
  discountPackages: z.number().int(),
  products: z.number().int(),
  promotionalProducts: z.number().int().describe('Promotional links (membership, product)'),
  mostPromoted: z
    .array(z.object({ productId: z.number().int(), name: z.string(), memberships: z.number().int() }))
    .describe('The five products promoted by the most memberships'),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

// ---- Security section -----------------------------------------------------------------------

export const deviceSessionSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  browser: z.string(),
  os: z.string(),
  ipAddress: z.string().nullable(),
}) satisfies z.ZodType<DeviceSession>;

export const securityActivitySchema = z.object({
  at: z.string(),
  event: z.enum(SECURITY_EVENTS),
  browser: z.string(),
  os: z.string(),
  ipAddress: z.string().nullable(),
}) satisfies z.ZodType<SecurityActivity>;

export const sessionIdParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be the id of one of your sessions'),
});

export const securityFactorsSchema = z.object({
  passkeys: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      createdAt: z.string(),
      lastUsedAt: z.string().nullable(),
      backedUp: z.boolean(),
    }),
  ),
  totp: z.object({ enabled: z.boolean(), createdAt: z.string().nullable() }),
  recoveryCodes: z.object({ remaining: z.number().int() }),
}) satisfies z.ZodType<SecurityFactors>;

export const totpSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string() }) satisfies z.ZodType<TotpSetup>;

/** A 6-digit authenticator code; spaces a person types between the digits are allowed. */
export const totpCodeBodySchema = z.object({
  code: z
    .string()
    .transform((code) => code.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, FACTOR_MESSAGES.malformedCode)),
});

export const recoveryCodesIssuedSchema = z.object({
  recoveryCodes: z.array(z.string()),
}) satisfies z.ZodType<RecoveryCodesIssued>;

/** WebAuthn options and responses are the browser's JSON, checked by @simplewebauthn/server, not by shape here. */
const webauthnJson = z.record(z.string(), z.unknown());
export const passkeyOptionsSchema = webauthnJson;
export const passkeyRegistrationBodySchema = z.object({
  response: webauthnJson,
  name: requiredText(PASSKEY_NAME_LABEL, PASSKEY_NAME_MAX),
});
export const passkeyRenameBodySchema = z.object({ name: requiredText(PASSKEY_NAME_LABEL, PASSKEY_NAME_MAX) });
export const passkeyIdParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,1024}$/, 'Must be the id of one of your passkeys'),
});
export const passkeyAddedSchema = z.object({ id: z.string(), recoveryCodes: z.array(z.string()).optional() });

/** What turning a factor on answers: the recovery codes when it was the account's first second factor. */
export const factorAddedSchema = z.object({ recoveryCodes: z.array(z.string()).optional() });

// ---- Member self-service --------------------------------------------------------------------

export const orderIdParamsSchema = z.object({ orderId: idParamSchema });

/** `?year=2026`: the calendar year whose receipts to download. */
export const receiptYearQuerySchema = z.object({
  year: z
    .string({ error: 'Give the year, such as 2026' })
    .regex(/^\d{4}$/, 'Must be a year such as 2026')
    .transform(Number)
    .pipe(z.number().int().min(1970, 'Must be 1970 or later').max(9999)),
});

/** Closing the account: the member confirms with their current password. */
/** The code an account with a second factor adds to its password for a change that needs both (issue 34). */
export const confirmationCodeSchema = z
  .string()
  .max(64, 'A code is at most 64 characters')
  .optional()
  .describe('For an account with a second factor: a current authenticator code or an unused recovery code');

export const accountDeletionRequestSchema = z.object({
  password: z.string({ error: 'Enter your current password' }).min(1, 'Enter your current password').max(1024),
  code: confirmationCodeSchema,
});

export const accountDeletionSchema = z.object({
  deleteAfter: z.string().describe('ISO 8601: the account is deleted after this instant unless the member signs in'),
});
export type AccountDeletion = z.infer<typeof accountDeletionSchema>;

/** Changing the account's email: the new address, confirmed with the current password (and a code with a factor). */
export const emailChangeRequestSchema = z.object({
  newEmail: z
    .string({ error: EMAIL_CHANGE_TEXTS.badAddress })
    .trim()
    .max(EMAIL_MAX_LENGTH, EMAIL_CHANGE_TEXTS.tooLong)
    .pipe(z.email(EMAIL_CHANGE_TEXTS.badAddress)),
  password: z
    .string({ error: EMAIL_CHANGE_TEXTS.passwordRequired })
    .min(1, EMAIL_CHANGE_TEXTS.passwordRequired)
    .max(1024),
  code: confirmationCodeSchema,
});
export type EmailChangeRequest = z.input<typeof emailChangeRequestSchema>;

/** A change of address waiting for the member to open the link sent to the new one. */
export const pendingEmailChangeSchema = z.object({
  newEmail: z.string(),
  requestedAt: z.string().describe('ISO 8601'),
  expiresAt: z.string().describe('ISO 8601: the link works until then'),
});

export const emailChangeStatusSchema = z.object({
  email: z.string(),
  emailVerified: z.boolean(),
  pending: pendingEmailChangeSchema.nullable(),
}) satisfies z.ZodType<EmailChangeStatus>;

// ---- Admin member directory -----------------------------------------------------------------

/** One account in the administrators' member directory. */
export const adminMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  groups: z.array(z.string()),
  createdAt: z.string(),
  /** Whether the member has shown the address is theirs (opened a link sent to it); accounts made by the CLI are. */
  emailVerified: z.boolean(),
  /** When the member closed their account: it is deleted after this instant unless they sign in and keep it. */
  deletionPendingUntil: z.string().nullable(),
});
export type AdminMember = z.infer<typeof adminMemberSchema>;

export const memberIdParamsSchema = z.object({
  id: z.uuid('Must be a member id'),
});

/** A member's groups, replacing the ones they have. */
export const memberGroupsSchema = z.object({
  groups: z
    .array(z.string().regex(GROUP_NAME_PATTERN, GROUP_RULES.name))
    .max(GROUPS_MAX, GROUP_RULES.max)
    .refine((groups) => new Set(groups).size === groups.length, GROUP_RULES.once),
});

/** A member's personal information as held (support's view and the member's data export): as saved, and when. */
export const heldPersonalInformationSchema = userDetailsSchema.extend({
  createdAt: z.string().describe('ISO 8601: when the member first saved their details'),
  updatedAt: z.string().describe('ISO 8601: when they last changed them'),
});
export type HeldPersonalInformation = z.infer<typeof heldPersonalInformationSchema>;

/** A subscription as held (support's view and the member's data export): cancelled ones too, products by name. */
export const heldSubscriptionSchema = z.object({
  subscriptionId: z.number().int(),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
  pricePerInterval: moneyOutput,
  billingInterval: z.number().int(),
  billingPeriod: z.string(),
  products: z.array(z.string()),
});
export type HeldSubscription = z.infer<typeof heldSubscriptionSchema>;

/** A member as support sees them: the directory entry and what is held about them (read-only; the newest orders). */
export const adminMemberDetailsSchema = z.object({
  member: adminMemberSchema,
  personalInformation: heldPersonalInformationSchema.nullable().describe('Null until the member saves their details'),
  orders: z
    .array(paymentHistoryEntrySchema)
    .describe("The newest page of the member's orders; GET /api/admin/members/{id}/orders pages through all"),
  ordersPage: pageSchema,
  subscriptions: z.array(heldSubscriptionSchema).describe('Oldest first, cancelled ones too'),
  sessions: z.array(deviceSessionSchema),
  securityActivity: z
    .array(securityActivitySchema)
    .describe(
      "The newest page of the member's security activity; GET /api/admin/members/{id}/activity pages through all",
    ),
  securityActivityPage: pageSchema,
  signInMethods: z
    .object({ authenticatorApp: z.boolean(), passkeys: z.number().int(), recoveryCodes: z.number().int() })
    .describe("The member's second factors: kinds and counts, never a secret"),
  pendingEmailChange: pendingEmailChangeSchema
    .nullable()
    .describe('A change of address the member asked for and has not confirmed yet'),
});
export type AdminMemberDetails = z.infer<typeof adminMemberDetailsSchema>;

// ---- Admin audit trail ----------------------------------------------------------------------

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.object({ id: z.string(), email: z.string().nullable() }),
  action: z.string(),
  entity: z.enum(Object.keys(AUDIT_ENTITIES) as [AuditEntity, ...AuditEntity[]]),
  entityId: z.string(),
  label: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reverts: z.number().int().nullable(),
  revertedBy: z.number().int().nullable(),
  revertible: z.boolean(),
}) satisfies z.ZodType<AuditEntry>;

/** The audit list's query: the paging contract (newest first), CSV, and who or what it is about. */
export const auditQuerySchema = exportableListQuerySchema('audit')
  .extend({
    entity: z
      .enum(Object.keys(AUDIT_ENTITIES) as [AuditEntity, ...AuditEntity[]], {
        error: `Must be one of: ${Object.keys(AUDIT_ENTITIES).join(', ')}`,
      })
      .optional(),
    entityId: z.string().trim().min(1, 'Must not be empty').max(100, 'At most 100 characters').optional(),
    actor: z.string().trim().min(1, 'Must not be empty').max(200, 'At most 200 characters').optional(),
  })
  .refine((query) => query.entityId === undefined || query.entity !== undefined, {
    message: 'Give entity with entityId',
    path: ['entityId'],
  });

export const auditIdParamsSchema = z.object({ id: idParamSchema });
