import { sql, type AnyColumn } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { searchDigitRuns } from './search.js';

/**
 * The text the audit trail searches (who, what was done, the entity's name): one expression for its indexes and its
 * list's statement, which the planner matches to them only while they are the same.
 */
export const auditSearchText = (t: { actorEmail: AnyColumn; action: AnyColumn; label: AnyColumn }) =>
  sql`(coalesce(${t.actorEmail}, '') || ' ' || ${t.action} || ' ' || coalesce(${t.label}, ''))`;

/**
 * What was changed on behalf of whom: one row per change, written in the transaction of the change, never updated or
 * deleted. `actor_id` is the token subject of the administrator, or `system` for the server's own work (the purge of
 * closed accounts). `before` and `after` hold the entity's state as JSON (null where it did not exist or is gone);
 * `label` is the entity's name when it changed and `labels` the names of what the states refer to by id
 * (`product:12`), so the trail reads the same after those are renamed or gone. `reverts` names the entry a revert
 * undid. The two exceptions to "never updated", and the only ones the trigger allows: a debounced price save folds
 * into its own entry of the last minute (its `after` and `labels`), and a closed account's purge clears its entries'
 * `label`. Neither changes an entry's time, entity or action.
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
    label: text('label'),
    labels: jsonb('labels'),
    reverts: bigint('reverts', { mode: 'number' }).references((): AnyPgColumn => auditEntries.id),
  },
  (t) => [
    index('audit_entries_at_idx').on(t.at, t.id),
    index('audit_entries_entity_idx').on(t.entity, t.entityId, t.at, t.id),
    index('audit_entries_actor_idx').on(t.actorId, t.at, t.id),
    index('audit_entries_reverts_idx').on(t.reverts),
    index('audit_entries_search_trgm_idx').using('gin', sql`${auditSearchText(t)} gin_trgm_ops`),
    index('audit_entries_search_digits_idx').using('gin', searchDigitRuns(auditSearchText(t))),
  ],
);
