import { sql } from 'drizzle-orm';
import {
  bigint,
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
    ...timestamps,
  },
  (t) => [
    uniqueIndex('accounts_email_lower_idx').on(sql`lower(${t.email})`),
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
  ],
);

/** Token signing keys (private JWKs) and cookie keys, generated on first start. */
export const oidcKeys = pgTable('oidc_keys', {
  kind: text('kind').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Failed sign-ins and password change attempts, per key (account or address), in PostgreSQL so that every API
 * process counts the same attempts. Old rows are deleted as new ones are recorded.
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
