import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';

type Executor = Pick<Database, 'execute'>;

/** Who made a change: an administrator (their token's subject and email), or the server itself. */
export interface Actor {
  id: string;
  email: string | null;
}

export const SYSTEM_ACTOR: Actor = { id: 'system', email: null };

/**
 * Appends one entry to the audit trail, in the caller's transaction: the change and its record land together or
 * neither does. Entries are never changed or removed (the table's trigger refuses it).
 */
export async function appendAudit(
  tx: Executor,
  entry: { actor: Actor; action: string; entity: string; entityId: string; before: unknown; after: unknown },
): Promise<void> {
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  await tx.execute(sql`
    insert into audit_entries (actor_id, actor_email, action, entity, entity_id, before, after)
    values (${entry.actor.id}, ${entry.actor.email}, ${entry.action}, ${entry.entity}, ${entry.entityId},
            ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb)`);
}
