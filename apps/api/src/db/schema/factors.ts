import { bigint, boolean, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './identity.js';

/**
 * An account's authenticator app (TOTP, RFC 6238): its secret sealed by the key service (context
 * `totp:<account id>`), pending until the member confirms a first code. One per account.
 */
export const totpFactors = pgTable('totp_factors', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.accountId, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
});

/**
 * The time steps whose codes an account has used: a code works once, on any process (the primary key refuses the
 * second use). Swept once the step is out of the accepted window.
 */
export const totpUsedSteps = pgTable(
  'totp_used_steps',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.accountId, { onDelete: 'cascade' }),
    step: bigint('step', { mode: 'number' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.step] }), index('totp_used_steps_used_at_idx').on(t.usedAt)],
);

/** Single-use recovery codes, stored only as SHA-256 hashes; a new set replaces the old one. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.accountId, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.codeHash] })],
);

/** An account's passkeys (WebAuthn credentials): the public key only; the private key never leaves the device. */
export const passkeys = pgTable(
  'passkeys',
  {
    /** The credential id (base64url), unique across all accounts. */
    id: text('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.accountId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    /** Synced (a passkey manager keeps copies) or bound to one device. */
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('passkeys_account_idx').on(t.accountId)],
);

/**
 * WebAuthn challenges, each for one purpose and (for registration and step two of a sign-in) one account, used at
 * most once (deleted as they are used) within 5 minutes, on any process.
 */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  challenge: text('challenge').primaryKey(),
  purpose: text('purpose').notNull(),
  accountId: uuid('account_id'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
