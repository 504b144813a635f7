import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What was changed on behalf of whom: one row per change, written in the transaction of the change, never updated or
 * deleted. `actor_id` is the token subject of the administrator, or `system` for the server's own work (the purge of
 * closed accounts). `before` and `after` hold the entity's state as JSON (null where it did not exist or is gone).
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: text('actor_id').notNull(),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_entries_at_idx').on(t.at, t.id),
    index('audit_entries_entity_idx').on(t.entity, t.entityId, t.at, t.id),
    index('audit_entries_actor_idx').on(t.actorId, t.at, t.id),
  ],
);
