import { AUDIT_IRREVERSIBLE_ACTIONS, AUDIT_MESSAGES, type AuditEntity, type AuditEntry } from '@ums/contracts/audit';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { conflict, HttpError, notFound } from '../../plugins/http-errors.js';
import type { Actor } from './audit.js';
import { recordChange, type AuditedEntity } from './entities.js';
import { auditEntryKey, auditFrom, auditItem } from './audit.lists.js';
import { applyState, stillMatches, type State } from './states.js';

const IRREVERSIBLE: ReadonlySet<string> = new Set(AUDIT_IRREVERSIBLE_ACTIONS);

/**
 * Reverting an audit entry: in one transaction, under the lock the entity's writers take, the entity gets back the
 * entry's `before` state, but only while it still shows the entry's `after` state (409 with the current state
 * otherwise, so nothing done since is silently undone). The revert is itself an entry, naming the one it reverted.
 */
export function createAuditRevert({ db, entities }: { db: Database; entities: AuditedEntity[] }) {
  const byName = new Map(entities.map((entity) => [entity.entity, entity]));

  const entryById = async (tx: Pick<Database, 'execute'>, id: number) => {
    const { rows } = await tx.execute<{ entry: AuditEntry }>(
      sql`select ${auditItem} as entry from ${auditFrom} where ${auditEntryKey} = ${id}`,
    );
    return rows[0]?.entry ?? null;
  };

  return {
    /** `mayRevert` says whether the caller's roles cover the entry's entity (refused with 403 otherwise). */
    async revert(actor: Actor, id: number, mayRevert: (entity: AuditEntity) => void = () => {}): Promise<AuditEntry> {
      return db.transaction(async (tx) => {
        const entry = await entryById(tx, id);
        if (!entry) throw notFound(`Audit entry ${id}`);
        mayRevert(entry.entity);
        const audited = byName.get(entry.entity);
        if (!audited || IRREVERSIBLE.has(entry.action)) throw conflict(AUDIT_MESSAGES.irreversible);
        await audited.lock(tx);
        const current = await audited.read(tx, entry.entityId);
        if (!stillMatches(current, entry.after, entry.before === null)) {
          throw new HttpError(409, AUDIT_MESSAGES.changedSince, undefined, current === null ? [] : [current]);
        }
        const target: State | null =
          entry.before === null ? null : current === null ? entry.before : applyState(current, entry.before);
        const revertId = await recordChange(
          tx,
          audited,
          entry.entityId,
          { actor, action: 'revert', reverts: entry.id },
          () => audited.write(tx, entry.entityId, target, current, actor),
        );
        if (revertId === null) throw conflict(AUDIT_MESSAGES.nothingToRevert);
        return (await entryById(tx, revertId))!;
      });
    },
  };
}

export type AuditRevert = ReturnType<typeof createAuditRevert>;
