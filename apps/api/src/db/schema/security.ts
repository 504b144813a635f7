import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What happened to an account's security (sign-ins, failed ones, password changes, sign-outs, ended sessions, new
 * devices), for the member's activity list. Keyed by the token subject, so accounts of any provider have one; kept
 * 90 days, then swept.
 */
export const securityEvents = pgTable(
  'security_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subject: text('subject').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    event: text('event').notNull(),
    browser: text('browser').notNull(),
    os: text('os').notNull(),
    ipAddress: text('ip_address'),
  },
  (t) => [
    // Read backwards for newest first.
    index('security_events_subject_at_idx').on(t.subject, t.at, t.id),
    index('security_events_at_idx').on(t.at),
  ],
);

/**
 * What the provider does not keep of a session: the browser and address it signed in from and was last used from,
 * and when. One row per provider session (by its uid, never its cookie), removed with the session.
 */
export const sessionDetails = pgTable(
  'session_details',
  {
    sessionUid: text('session_uid').primaryKey(),
    accountId: text('account_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
    browser: text('browser').notNull(),
    os: text('os').notNull(),
    ipAddress: text('ip_address'),
  },
  (t) => [index('session_details_account_idx').on(t.accountId)],
);

/**
 * Browsers an account has signed in from, by a hash of the browser's device cookie: a sign-in from one not seen for 90
 * days is a new device (an alert goes to the member).
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    accountId: text('account_id').notNull(),
    deviceHash: text('device_hash').notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.deviceHash] }), index('known_devices_seen_idx').on(t.lastSeenAt)],
);

/**
 * Mail to send, written in the transaction of what it tells (so a rolled-back change sends nothing) and delivered
 * by any API process afterwards, retried with back-off until it goes or its attempts run out.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (t) => [
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
  ],
);
