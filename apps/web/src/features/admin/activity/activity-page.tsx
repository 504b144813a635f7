import {
  Badge,
  Button,
  Card,
  makeStyles,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  AUDIT_ACTIONS,
  AUDIT_ENTITIES,
  CATALOG_AUDIT_ENTITIES,
  OPERATOR_ACTOR_ID,
  type AuditEntity,
  type AuditEntry,
} from '@ums/contracts/audit';
import { revertRight } from '@ums/contracts/roles';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { ErrorBanner } from '../../../components/error-banner.js';
import { ListToolbar, LoadMore } from '../../../components/list-controls.js';
import { adminPaths } from '../admin-paths.js';
import { ApiError } from '../../../lib/api-client.js';
import { errorText } from '../../../lib/error-text.js';
import { useAddressParam, useListView } from '../../../lib/paged-list.js';
import { formatDateTime } from '../../../lib/format-date-time.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { ListState } from '../components/list-state.js';
import { useConsoleRights } from '../console-roles.js';
import { auditPath, useAuditEntries, useRevert } from './api.js';
import { diffRows, type DiffRow } from './diff-rows.js';
import { ACTIVITY as T } from './messages.js';

const useStyles = makeStyles({
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalM },
  entry: { gap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalL },
  heading: { margin: 0, fontSize: tokens.fontSizeBase400 },
  meta: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  filters: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM },
  tableWrap: { overflowX: 'auto' },
});

/** An entry's change, Field / Before / After; or, with `now`, what the entity shows now (Field / Now). */
function ChangeTable({
  rows,
  label,
  entryId,
  now = false,
}: {
  rows: DiffRow[];
  label: string;
  /** Two entries may read alike: the scrolling region names its entry, so each landmark is unique. */
  entryId: number;
  now?: boolean;
}) {
  const styles = useStyles();
  return (
    // Scrolls sideways on a narrow screen: focusable, so the keyboard can scroll it too.
    <div className={styles.tableWrap} role="region" aria-label={`${label} (#${entryId})`} tabIndex={0}>
      <Table size="small" aria-label={label}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{T.columns.field}</TableHeaderCell>
            {now ? null : <TableHeaderCell>{T.columns.before}</TableHeaderCell>}
            <TableHeaderCell>{now ? T.now : T.columns.after}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.key}>
              <TableCell>{row.field}</TableCell>
              {now ? null : <TableCell>{row.before}</TableCell>}
              <TableCell>{row.after}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** What the entity shows now, for the fields the entry changed (from a revert's conflict answer). */
function currentOf(entry: AuditEntry, current: Record<string, unknown> | null) {
  if (current === null || entry.after === null) return current;
  return Object.fromEntries(
    Object.entries(entry.after).map(([field, value]) => {
      const now = current[field];
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return [field, now ?? null];
      const items = (typeof now === 'object' && now !== null ? now : {}) as Record<string, unknown>;
      return [field, Object.fromEntries(Object.keys(value).map((id) => [id, items[id] ?? null]))];
    }),
  );
}

function EntryCard({ entry, onActor }: { entry: AuditEntry; onActor: (id: string) => void }) {
  const styles = useStyles();
  const revert = useRevert();
  const { can } = useConsoleRights();
  const [confirming, setConfirming] = useState(false);
  const mayRevert = can(revertRight(entry.entity));
  const action = AUDIT_ACTIONS[entry.action] ?? entry.action;
  const what = [action, entry.label].filter(Boolean).join(': ');
  const who = entry.actor.email ?? (entry.actor.id === OPERATOR_ACTOR_ID ? T.operator : T.system);
  // A conflict answers what the entity shows now as the envelope's data.
  const conflict =
    revert.error instanceof ApiError && revert.error.status === 409
      ? ((revert.error.body as { data?: Record<string, unknown>[] } | undefined)?.data?.[0] ?? null)
      : null;
  return (
    <Card className={styles.entry}>
      <h2 className={styles.heading}>{what}</h2>
      <div className={styles.meta}>
        <Text>{formatDateTime(entry.at)}</Text>
        <Text>
          {entry.actor.email ? (
            <Button
              appearance="transparent"
              size="small"
              onClick={() => onActor(entry.actor.id)}
              title={T.onlyThisAdmin(who)}
            >
              {T.by(who)}
            </Button>
          ) : (
            T.by(who)
          )}
        </Text>
        <Badge appearance="outline">{AUDIT_ENTITIES[entry.entity]}</Badge>
        {entry.reverts !== null ? <Badge appearance="tint">{T.revertOf(entry.reverts)}</Badge> : null}
        {entry.revertedBy !== null ? (
          <Badge appearance="tint" color="warning">
            {T.reverted}
          </Badge>
        ) : null}
      </div>
      <ChangeTable rows={diffRows(entry)} label={`${T.changes}: ${what}`} entryId={entry.id} />
      {entry.revertible && entry.revertedBy === null && mayRevert ? (
        <div>
          <Button disabled={revert.isPending} onClick={() => setConfirming(true)}>
            {T.revert}
          </Button>
        </div>
      ) : null}
      {revert.isError ? (
        <>
          <ErrorBanner message={errorText(revert.error, T.revertFailed)} error={revert.error} />
          {conflict ? (
            <ChangeTable rows={diffRows(entry, currentOf(entry, conflict))} label={T.now} entryId={entry.id} now />
          ) : null}
        </>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={T.revertTitle}
        message={T.revertMessage(what)}
        cancelLabel={T.cancel}
        confirmLabel={T.revert}
        busy={revert.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => revert.mutate(entry.id, { onSettled: () => setConfirming(false) })}
      />
    </Card>
  );
}

/**
 * "Activity": the audit trail, newest first, with a readable change per entry and Revert. The address holds the
 * filters (`entity`, `entityId`, `actor`), the search and the order, so a "History" link or a copied address shows
 * the same list.
 */
export function ActivityPage() {
  const admin = useAdminStyles();
  const styles = useStyles();
  const kindId = useId();
  const view = useListView();
  const [params, setParams] = useSearchParams();
  const entity = params.get('entity') ?? '';
  const entityId = params.get('entityId') ?? '';
  const [actor, setActor] = useAddressParam('actor');
  // Another kind of entity ends one entity's history (one address change, so both land together).
  const setKind = (kind: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('entityId');
        if (kind) next.set('entity', kind);
        else next.delete('entity');
        return next;
      },
      { replace: true },
    );
  const { can } = useConsoleRights();
  const known = entity in AUDIT_ENTITIES;
  const filters = { entity: known ? entity : '', entityId: known ? entityId : '', actor };
  const entries = useAuditEntries(filters, view);
  const first = entries.rows[0];
  const narrowed = entityId
    ? T.historyOf(first?.label ?? `${AUDIT_ENTITIES[entity as AuditEntity] ?? entity} ${entityId}`)
    : actor
      ? T.changesBy(entries.rows.find((e) => e.actor.id === actor)?.actor.email ?? actor)
      : null;
  return (
    <div className={admin.page}>
      <div className={admin.header}>
        <h1 className={admin.title}>{T.title}</h1>
      </div>
      <Text>{T.intro}</Text>
      <div className={styles.filters}>
        <label htmlFor={kindId}>{T.kind}</label>
        <Select id={kindId} value={entity in AUDIT_ENTITIES ? entity : ''} onChange={(_, data) => setKind(data.value)}>
          <option value="">{T.allKinds}</option>
          {Object.entries(AUDIT_ENTITIES)
            // A role without member data (Catalog) is answered the catalog's entries only.
            .filter(([value]) => can('members') || CATALOG_AUDIT_ENTITIES.includes(value as AuditEntity))
            .map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
        </Select>
        {narrowed ? (
          <>
            <Text weight="semibold">{narrowed}</Text>
            <Link to={adminPaths.activity}>{T.showAll}</Link>
          </>
        ) : null}
      </div>
      <ListToolbar
        searchLabel={T.search}
        view={view}
        sorts={T.sorts}
        exportCsv={{ path: auditPath(filters), file: 'audit-trail' }}
      />
      <ListState list={entries} q={view.q} texts={T}>
        <ul className={styles.list} aria-label={T.title}>
          {entries.rows.map((entry) => (
            <li key={entry.id}>
              <EntryCard entry={entry} onActor={setActor} />
            </li>
          ))}
        </ul>
        <LoadMore list={entries} />
      </ListState>
    </div>
  );
}
