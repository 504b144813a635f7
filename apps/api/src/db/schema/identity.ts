import { sql, type AnyColumn } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';
import { searchDigitRuns } from './search.js';

/**
 * The text the member directory searches (an account's email and names): one expression for its indexes and its
 * list's statement, which the planner matches to them only while they are the same.
 */
export const accountSearchText = (t: { email: AnyColumn; firstName: AnyColumn; lastName: AnyColumn }) =>
  sql`(${t.email} || ' ' || coalesce(${t.firstName}, '') || ' ' || coalesce(${t.lastName}, ''))`;

/** Accounts of the embedded identity provider. */
export const accounts = pgTable(
  'accounts',
  {
    accountId: uuid('account_id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    groups: text('groups')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    role: text('role').notNull().default('user'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    phoneNumber: text('phone_number'),
    /** The member has shown the address is theirs (opened a link sent to it); accounts made by the CLI are. */
    emailVerified: boolean('email_verified').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('accounts_email_lower_idx').on(sql`lower(${t.email})`),
    // The member directory: newest first, and a search over email and names.
    index('accounts_created_idx').on(t.createdAt, t.accountId),
    index('accounts_search_trgm_idx').using('gin', sql`${accountSearchText(t)} gin_trgm_ops`),
    index('accounts_search_digits_idx').using('gin', searchDigitRuns(accountSearchText(t))),
    check('accounts_email_not_blank', sql`btrim(${t.email}) <> ''`),
  ],
);

/** Everything oidc-provider stores (sessions, grants, codes, tokens, interactions), shared by all processes. */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_payloads_grant_idx').on(t.grantId),
    index('oidc_payloads_uid_idx').on(t.uid),
    index('oidc_payloads_expires_idx').on(t.expiresAt),
    // An account's sessions, grants, codes and tokens, for its devices list and for ending them all at once (a
    // password change, "End all sessions", a closed account's purge): of every model, which each such statement reads.
    index('oidc_payloads_account_idx').on(sql`(${t.payload}->>'accountId')`),
  ],
);

/**
 * Data keys of the key service (secrets/key-service.ts): random AES-256 keys, each stored only wrapped (encrypted)
 * under the key-encryption key named by `kek_id`, which is never in the database. Sealed values name their data key.
 */
export const dataKeys = pgTable('data_keys', {
  id: text('id').primaryKey(),
  kekId: text('kek_id').notNull(),
  wrapped: text('wrapped').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Token signing keys (private JWKs) and cookie keys, generated on first start; `value` is sealed by the key service. */
export const oidcKeys = pgTable('oidc_keys', {
  kind: text('kind').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sign-in and password change attempts, per key (a hash of what is limited: an account, an address, or both), in
 * PostgreSQL so that every API process counts the same attempts. An attempt is reserved before the password is
 * checked (`attempt_reserve`, one atomic call) and forgotten again when it succeeds; rows older than the longest
 * window are swept on a timer.
 */
export const attemptEvents = pgTable(
  'attempt_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('attempt_events_key_at_idx').on(t.key, t.at)],
);

/**
 * "Access tokens issued before this instant are void", per account (`account:<id>`) or per grant (`grant:<id>`, one
 * provider session of the web app). `others_not_before` voids the tokens of every grant but `except_grant` (the
 * session that changed the password keeps working). Every API process keeps the table in memory and hears changes
 * through LISTEN/NOTIFY; a row is swept once every access token issued before it has expired.
 */
export const tokenRevocations = pgTable(
  'token_revocations',
  {
    key: text('key').primaryKey(),
    notBefore: timestamp('not_before', { withTimezone: true }),
    othersNotBefore: timestamp('others_not_before', { withTimezone: true }),
    exceptGrant: text('except_grant'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('token_revocations_updated_idx').on(t.updatedAt)],
);

/**
 * Links that let a member who forgot their password set a new one: stored only as a SHA-256 of the link's token,
 * valid 30 minutes and once. Using one leaves a short-lived sign-in ticket (also stored as a hash) that signs the
 * member in at the provider's next login prompt in that browser.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.accountId, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    signInHash: text('sign_in_hash'),
  },
  (t) => [
    uniqueIndex('password_resets_token_idx').on(t.tokenHash),
    uniqueIndex('password_resets_sign_in_idx').on(t.signInHash),
    index('password_resets_account_idx').on(t.accountId),
    index('password_resets_expires_idx').on(t.expiresAt),
  ],
);

/**
 * A member's changes of email address (issue 36). The link mailed to the new address is stored only as a SHA-256 of
 * its token and works once, for 24 hours, while the change is neither cancelled nor superseded by a newer one; once
 * confirmed, the "This wasn't me" link mailed to the old address (also a hash) restores it for 7 days. The session
 * that asked (`kept_grant`) stays signed in when the change is made; every other one ends.
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.accountId, { onDelete: 'cascade' }),
    oldEmail: text('old_email').notNull(),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull(),
    keptGrant: text('kept_grant'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    revertHash: text('revert_hash'),
    revertExpiresAt: timestamp('revert_expires_at', { withTimezone: true }),
    revertedAt: timestamp('reverted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('email_changes_token_idx').on(t.tokenHash),
    uniqueIndex('email_changes_revert_idx').on(t.revertHash),
    index('email_changes_account_idx').on(t.accountId, t.createdAt),
  ],
);
