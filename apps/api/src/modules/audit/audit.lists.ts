import type { AuditEntry, AuditFilters } from '@ums/contracts';
import { AUDIT_IRREVERSIBLE_ACTIONS, CATALOG_AUDIT_ENTITIES } from '@ums/contracts/audit';
import { sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { auditEntries, auditSearchText } from '../../db/schema/index.js';
import { stripedCount } from '../../db/write-stripes.js';
import {
  isoTime,
  jsonObject,
  key,
  literal,
  scopeValue,
  tableAs,
  type ListDefinition,
} from '../lists/list-statements.js';

const e = alias(auditEntries, 'e');
const r = alias(auditEntries, 'r');
const REVERTIBLE_ENTITIES = ['membership', 'discount-package', 'member'];
/** Constant names as SQL literals (they are the contract's, never a request's). */
const literals = (list: readonly string[]) => sql.join(list.map(literal), sql`, `);

/** The audit trail as `e`, the table `auditItem` reads. */
export const auditFrom = tableAs(auditEntries, 'e');
/** The id of `auditFrom`'s entry. */
export const auditEntryKey = e.id;

/** One entry as JSON, from `auditFrom`. */
export const auditItem = jsonObject<AuditEntry>({
  id: e.id,
  at: isoTime(e.at),
  actor: jsonObject<AuditEntry['actor']>({ id: e.actorId, email: e.actorEmail }),
  action: e.action,
  // Written only from AUDIT_ENTITIES (entries are recorded by the API itself).
  entity: sql<AuditEntry['entity']>`${e.entity}`,
  entityId: e.entityId,
  label: e.label,
  labels: sql<AuditEntry['labels']>`coalesce(${e.labels}, '{}'::jsonb)`,
  before: sql<AuditEntry['before']>`${e.before}`,
  after: sql<AuditEntry['after']>`${e.after}`,
  reverts: e.reverts,
  revertedBy: sql<number | null>`(select max(${r.id}) from ${tableAs(auditEntries, 'r')} where ${r.reverts} = ${e.id})`,
  revertible: sql<boolean>`${e.entity} in (${literals(REVERTIBLE_ENTITIES)}) and ${e.action} not in (${literals(AUDIT_IRREVERSIBLE_ACTIONS)})`,
});

const definitions = new Map<string, ListDefinition<'audit'>>();

/**
 * The audit list, newest first, filtered by what it is about and who did it: one definition (and prepared
 * statements) per combination of filters, each answered by an index that starts with them. The filters' values are
 * the scope values.
 */
export function auditList(filters: AuditFilters & { catalogOnly?: boolean }): {
  spec: ListDefinition<'audit'>;
  scope: string[];
} {
  const columns = (
    [
      ['entity', e.entity],
      ['entityId', e.entityId],
      ['actor', e.actorId],
    ] as const
  ).filter(([field]) => filters[field] !== undefined);
  const scope = columns.map(([field]) => filters[field]!);
  const name = `audit${filters.catalogOnly ? '_catalog' : ''}${columns.map(([field]) => `_${field}`).join('')}`;
  let spec = definitions.get(name);
  if (!spec) {
    // The catalog's entries only, for a role without member data: what is not about a member.
    const conditions = [
      ...(filters.catalogOnly ? [sql`${e.entity} in (${literals(CATALOG_AUDIT_ENTITIES)})`] : []),
      ...columns.map(([, column], i) => sql`${column} = ${scopeValue(i)}`),
    ];
    const where: SQL | undefined = conditions.length > 0 ? sql.join(conditions, sql` and `) : undefined;
    spec = {
      list: 'audit',
      name,
      from: auditFrom,
      ...(where ? { scope: where } : {}),
      // The text of the trail's trigram and digit-run indexes (audit_entries_search_trgm_idx and _digits_idx).
      search: ({ contains }) => contains(auditSearchText(e)),
      digitRunsIndexed: true,
      searchCountCapped: true,
      sorts: { at: { keys: [key(e.at), key(e.id)], seek: 1 } },
      item: auditItem,
      // The count's stripes (decision 036); a filter's entries are counted up to SEARCH_COUNT_LIMIT (decision 053).
      total: stripedCount('audit_entries'),
    };
    definitions.set(name, spec);
  }
  return { spec, scope };
}
