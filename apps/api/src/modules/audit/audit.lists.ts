import type { AuditFilters } from '@ums/contracts';
import { AUDIT_IRREVERSIBLE_ACTIONS } from '@ums/contracts/audit';
import { legacyKey as key, type ListSpec } from '../lists/list-statements.js';

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const REVERTIBLE_ENTITIES = ['membership', 'discount-package', 'member'];
const quoted = (list: readonly string[]) => list.map((value) => `'${value}'`).join(', ');

/** One entry as JSON, from `audit_entries e`. */
export const AUDIT_ITEM = `json_build_object(
  'id', e.id, 'at', ${iso('e.at')}, 'actor', json_build_object('id', e.actor_id, 'email', e.actor_email),
  'action', e.action, 'entity', e.entity, 'entityId', e.entity_id, 'label', e.label,
  'labels', coalesce(e.labels, '{}'::jsonb), 'before', e.before, 'after', e.after, 'reverts', e.reverts,
  'revertedBy', (select max(r.id) from audit_entries r where r.reverts = e.id),
  'revertible', e.entity in (${quoted(REVERTIBLE_ENTITIES)}) and e.action not in (${quoted(AUDIT_IRREVERSIBLE_ACTIONS)}))`;

const specs = new Map<string, ListSpec<'audit'>>();

/**
 * The audit list, newest first, filtered by what it is about and who did it: one spec (and prepared statements) per
 * combination of filters, each answered by an index that starts with them. The filters' values are `scopeValues`.
 */
export function auditList(filters: AuditFilters): { spec: ListSpec<'audit'>; scope: string[] } {
  const columns = (
    [
      ['entity', 'e.entity'],
      ['entityId', 'e.entity_id'],
      ['actor', 'e.actor_id'],
    ] as const
  ).filter(([field]) => filters[field] !== undefined);
  const scope = columns.map(([field]) => filters[field]!);
  const name = `audit${columns.map(([field]) => `_${field}`).join('')}`;
  let spec = specs.get(name);
  if (!spec) {
    const where = columns.map(([, column], i) => `${column} = $${i + 1}`).join(' and ');
    spec = {
      list: 'audit',
      name,
      from: 'audit_entries e',
      ...(where ? { scope: where } : {}),
      scopeValues: columns.length,
      // One trigram index answers it (audit_entries_search_trgm_idx): the expression must stay exactly this.
      search: `(coalesce(e.actor_email, '') || ' ' || e.action || ' ' || coalesce(e.label, '')) ilike {pattern}`,
      sorts: { at: { keys: [key('e.at', 'timestamptz'), key('e.id', 'int8')], seek: 1 } },
      item: AUDIT_ITEM,
      total: where
        ? `(select count(*) from audit_entries e where ${where})`
        : `(select coalesce((select n from list_counts where key = 'audit_entries'), 0))`,
    };
    specs.set(name, spec);
  }
  return { spec, scope };
}
