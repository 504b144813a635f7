import {
  Button,
  makeStyles,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  TabList,
  tokens,
} from '@fluentui/react-components';
import type { HeldPersonalInformation } from '@ums/contracts';
import { SECURITY_EVENT_LABELS } from '@ums/contracts/security';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { ErrorBanner } from '../../../components/error-banner.js';
import { LoadMore } from '../../../components/list-controls.js';
import { Spinner } from '../../../components/spinner.js';
import { adminPaths } from '../admin-paths.js';
import { StepUpRequiredError } from '../../../lib/api-client.js';
import { useClientConfig } from '../../../lib/client-config-context.js';
import { errorText } from '../../../lib/error-text.js';
import { formatDateTime } from '../../../lib/format-date-time.js';
import { formatShortDate, formatUsd } from '../../../lib/format.js';
import type { PageOf } from '../../../lib/paged-list.js';
import { useStepUpDraft } from '../../../lib/step-up-draft.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { useConsoleRights } from '../console-roles.js';
import { useMemberActions, useMemberDetails, useMemberPages, type MemberPages } from './api.js';
import {
  groupsText,
  memberActionDraftKey,
  readMemberActionDraft,
  type MemberActionDraft,
} from './member-action-draft.js';
import { MemberGroupsDialog } from './member-groups-dialog.js';
import { MemberStatus, memberName, UnverifiedEmailBadge } from './members-page.js';
import { MEMBERS } from './messages.js';

type TabName = keyof typeof MEMBERS.tabs;

const useStyles = makeStyles({
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  facts: { display: 'grid', gridTemplateColumns: 'minmax(140px, max-content) 1fr', gap: tokens.spacingVerticalS },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0 },
  note: { color: tokens.colorNeutralForeground3, margin: 0 },
  tableWrap: { overflowX: 'auto' },
  subtitle: { margin: 0, color: tokens.colorNeutralForeground2 },
});

/** The personal information shown, in order: each a field of the contract with its label. */
const DETAIL_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'birthdate',
  'streetAddress',
  'city',
  'stateProvince',
  'postalCode',
  'countryRegion',
] as const satisfies readonly (keyof typeof MEMBERS.fields & keyof HeldPersonalInformation)[];

/** A failure to show: a step-up refusal is none, the tab is already on its way to the new sign-in. */
const shownFailure = (error: unknown) => (error instanceof StepUpRequiredError ? null : error);

const text = (value: string | null | undefined) => value ?? '';
const when = (value: string | null | undefined) => (value ? formatShortDate(value) : '');

/** A read-only table of rows, or what to say when there are none. */
function RowsTable({
  label,
  columns,
  rows,
  empty,
}: {
  label: string;
  columns: string[];
  rows: ReactNode[][];
  empty: string;
}) {
  const styles = useStyles();
  if (rows.length === 0) return <p>{empty}</p>;
  return (
    <div className={styles.tableWrap}>
      <Table aria-label={label}>
        <TableHeader>
          <TableRow>
            {columns.map((column) => (
              <TableHeaderCell key={column}>{column}</TableHeaderCell>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((cells, index) => (
            <TableRow key={index}>
              {cells.map((cell, column) => (
                <TableCell key={column}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/**
 * One of the member's lists as a table, a page at a time from the page the details carried, with "Load more": their
 * orders (a member may have years of them) or their security activity (an attack leaves thousands of failed sign-ins).
 */
function MemberPagesTable<List extends keyof MemberPages>({
  memberId,
  list,
  first,
  label,
  columns,
  empty,
  loading,
  failed,
  row,
}: {
  memberId: string;
  list: List;
  first: { page: PageOf<MemberPages[List]>; updatedAt: number };
  label: string;
  columns: string[];
  empty: string;
  loading: string;
  failed: string;
  row: (item: MemberPages[List]) => string[];
}) {
  const pages = useMemberPages(memberId, list, first);
  if (pages.isPending) return <Spinner label={loading} />;
  if (pages.isError) return <ErrorBanner message={errorText(pages.error, failed)} error={pages.error} />;
  return (
    <>
      <RowsTable label={label} columns={columns} empty={empty} rows={pages.rows.map(row)} />
      {pages.rows.length > 0 ? <LoadMore list={pages} /> : null}
    </>
  );
}

/**
 * One member as support sees them: read-only details and history, and what support may change. Each change needs a
 * recent sign-in: when the API asks for one, the change started (the groups as typed, a confirmation) comes back
 * open after the sign-in, one press from done.
 */
/** One member's page; another member's id is another page (nothing of one member's dialogs or drafts carries over). */
export function MemberPage() {
  const { memberId = '' } = useParams();
  return <MemberPageOf key={memberId} memberId={memberId} />;
}

function MemberPageOf({ memberId }: { memberId: string }) {
  const admin = useAdminStyles();
  const styles = useStyles();
  const { adminGroup } = useClientConfig();
  const { can } = useConsoleRights();
  const details = useMemberDetails(memberId);
  const actions = useMemberActions(memberId);
  const [tab, setTab] = useState<TabName>('details');
  const draft = useStepUpDraft(memberActionDraftKey(memberId), readMemberActionDraft);
  const resumed = draft.restored;
  const [confirming, setConfirming] = useState<'end-sessions' | 'reset-sign-in-methods' | null>(() =>
    resumed && resumed.action !== 'groups' ? resumed.action : null,
  );
  // The groups field's text while the dialog is open; null when closed.
  const [editingGroups, setEditingGroups] = useState<string | null>(() =>
    resumed?.action === 'groups' ? resumed.groups : null,
  );
  // The dialog opened again after the sign-in says so, until it closes.
  const [groupsResumed, setGroupsResumed] = useState(resumed?.action === 'groups');
  const closeGroups = () => {
    setEditingGroups(null);
    setGroupsResumed(false);
  };
  /** Sends a change with its draft kept, so a step-up sign-in brings it back. */
  const start = <T,>(
    kept: MemberActionDraft,
    mutation: { mutate: (input: T, options: { onSettled: (data: unknown, error: unknown) => void }) => void },
    input: T,
    onDone: (error: unknown) => void = () => undefined,
  ) => {
    draft.keep(kept);
    mutation.mutate(input, {
      onSettled: (_, error) => {
        draft.settle(error);
        if (!(error instanceof StepUpRequiredError)) onDone(error);
      },
    });
  };

  if (details.isPending) return <Spinner label={MEMBERS.loading} />;
  if (details.isError || !details.data) {
    return <ErrorBanner message={errorText(details.error, MEMBERS.memberLoadFailed)} error={details.error} />;
  }
  const {
    member,
    personalInformation,
    orders,
    ordersPage,
    subscriptions,
    sessions,
    securityActivity,
    securityActivityPage,
    signInMethods,
  } = details.data;
  const pendingEmail = details.data.pendingEmailChange;
  const isAdmin = member.groups.includes(adminGroup);
  // Groups, and so console roles, are Admin's to change (README, "Console roles"): Support sees them only.
  const mayChangeGroups = can('roles');
  const failure =
    shownFailure(actions.endSessions.error) ??
    (editingGroups === null ? shownFailure(actions.setGroups.error) : null) ??
    shownFailure(actions.resetSignInMethods.error);
  const done = actions.endSessions.isSuccess
    ? actions.endSessions.data.message
    : actions.resetSignInMethods.isSuccess
      ? actions.resetSignInMethods.data.message
      : actions.setGroups.isSuccess
        ? actions.setGroups.data.message || MEMBERS.groupsSaved
        : null;

  const panels: Record<TabName, ReactNode> = {
    details: (
      <>
        <p className={styles.note}>{MEMBERS.readOnly}</p>
        <dl className={styles.facts}>
          {DETAIL_FIELDS.map((field) => (
            <div key={field} style={{ display: 'contents' }}>
              <dt className={styles.term}>{MEMBERS.fields[field]}</dt>
              <dd className={styles.value}>
                {(field === 'birthdate' ? when(personalInformation?.[field]) : text(personalInformation?.[field])) ||
                  MEMBERS.notProvided}
              </dd>
            </div>
          ))}
        </dl>
      </>
    ),
    orders: (
      <MemberPagesTable
        memberId={memberId}
        list="orders"
        first={{ page: { items: orders, page: ordersPage }, updatedAt: details.dataUpdatedAt }}
        label={MEMBERS.tabs.orders}
        columns={Object.values(MEMBERS.orderColumns)}
        empty={MEMBERS.noOrders}
        loading={MEMBERS.ordersLoading}
        failed={MEMBERS.ordersFailed}
        row={(order) => [
          `#${order.orderId}`,
          order.productNames.join(', '),
          formatUsd(order.totalAmount),
          when(order.date),
          order.status,
        ]}
      />
    ),
    subscriptions: (
      <RowsTable
        label={MEMBERS.tabs.subscriptions}
        columns={Object.values(MEMBERS.subscriptionColumns)}
        empty={MEMBERS.noSubscriptions}
        rows={subscriptions.map((subscription) => [
          subscription.products.join(', '),
          formatUsd(subscription.pricePerInterval),
          `${subscription.billingInterval} ${subscription.billingPeriod}`,
          when(subscription.createdAt),
          when(subscription.cancelledAt),
        ])}
      />
    ),
    sessions: (
      <RowsTable
        label={MEMBERS.tabs.sessions}
        columns={Object.values(MEMBERS.sessionColumns)}
        empty={MEMBERS.noSessions}
        rows={sessions.map((session) => [
          `${session.browser} on ${session.os}`,
          session.ipAddress ?? '',
          when(session.createdAt),
          when(session.lastActiveAt),
        ])}
      />
    ),
    activity: (
      <MemberPagesTable
        memberId={memberId}
        list="activity"
        first={{ page: { items: securityActivity, page: securityActivityPage }, updatedAt: details.dataUpdatedAt }}
        label={MEMBERS.tabs.activity}
        columns={Object.values(MEMBERS.activityColumns)}
        empty={MEMBERS.noActivity}
        loading={MEMBERS.activityLoading}
        failed={MEMBERS.activityFailed}
        row={(entry) => [
          when(entry.at),
          SECURITY_EVENT_LABELS[entry.event],
          `${entry.browser} on ${entry.os}`,
          entry.ipAddress ?? '',
        ]}
      />
    ),
    signInMethods: (
      <RowsTable
        label={MEMBERS.tabs.signInMethods}
        columns={Object.values(MEMBERS.signInMethodsColumns)}
        empty=""
        rows={[
          [MEMBERS.authenticatorApp, signInMethods.authenticatorApp ? MEMBERS.on : MEMBERS.off],
          [MEMBERS.passkeys, String(signInMethods.passkeys)],
          [MEMBERS.recoveryCodes, String(signInMethods.recoveryCodes)],
        ]}
      />
    ),
  };

  return (
    <div className={admin.page}>
      <Link to={adminPaths.members}>{MEMBERS.back}</Link>
      <div className={admin.header}>
        <div>
          <h1 className={admin.title}>{memberName(member) || member.email}</h1>
          {/* A div: Fluent's badges are divs, which a paragraph may not hold. */}
          <div className={styles.subtitle}>
            {member.email}
            <UnverifiedEmailBadge member={member} /> · {MEMBERS.columns.groups}:{' '}
            {member.groups.join(', ') || MEMBERS.noGroups} · <MemberStatus member={member} />
          </div>
          {pendingEmail ? (
            <p className={styles.subtitle}>
              {MEMBERS.emailChangePending(pendingEmail.newEmail, formatDateTime(pendingEmail.expiresAt))}
            </p>
          ) : null}
        </div>
        <div className={styles.actions}>
          <Button disabled={actions.endSessions.isPending} onClick={() => setConfirming('end-sessions')}>
            {MEMBERS.endSessions}
          </Button>
          <Button
            disabled={actions.resetSignInMethods.isPending}
            onClick={() => setConfirming('reset-sign-in-methods')}
          >
            {MEMBERS.resetSignInMethods}
          </Button>
          {mayChangeGroups ? (
            <>
              <Button
                disabled={actions.setGroups.isPending}
                onClick={() => {
                  const groups = isAdmin
                    ? member.groups.filter((group) => group !== adminGroup)
                    : [...member.groups, adminGroup];
                  start({ action: 'groups', groups: groupsText(groups) }, actions.setGroups, groups);
                }}
              >
                {isAdmin ? MEMBERS.removeAdmin : MEMBERS.makeAdmin}
              </Button>
              <Button
                disabled={actions.setGroups.isPending}
                onClick={() => {
                  actions.setGroups.reset();
                  setGroupsResumed(false);
                  setEditingGroups(groupsText(member.groups));
                }}
              >
                {MEMBERS.changeGroups}
              </Button>
            </>
          ) : null}
        </div>
      </div>
      {done ? <p role="status">{done}</p> : null}
      {failure ? <ErrorBanner message={errorText(failure, MEMBERS.actionFailed)} error={failure} /> : null}
      <TabList selectedValue={tab} onTabSelect={(_, data) => setTab(data.value as TabName)}>
        {(Object.keys(MEMBERS.tabs) as TabName[]).map((name) => (
          <Tab key={name} value={name}>
            {MEMBERS.tabs[name]}
          </Tab>
        ))}
      </TabList>
      <div role="tabpanel" aria-label={MEMBERS.tabs[tab]}>
        {panels[tab]}
      </div>
      <ConfirmDialog
        open={confirming === 'end-sessions'}
        title={MEMBERS.endSessionsTitle}
        message={MEMBERS.endSessionsMessage(member.email)}
        cancelLabel={MEMBERS.cancel}
        confirmLabel={MEMBERS.endSessions}
        busy={actions.endSessions.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => start({ action: 'end-sessions' }, actions.endSessions, undefined, () => setConfirming(null))}
      />
      <ConfirmDialog
        open={confirming === 'reset-sign-in-methods'}
        title={MEMBERS.resetSignInMethodsTitle}
        message={MEMBERS.resetSignInMethodsMessage(member.email)}
        cancelLabel={MEMBERS.cancel}
        confirmLabel={MEMBERS.resetSignInMethods}
        busy={actions.resetSignInMethods.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() =>
          start({ action: 'reset-sign-in-methods' }, actions.resetSignInMethods, undefined, () => setConfirming(null))
        }
      />
      <MemberGroupsDialog
        open={editingGroups !== null}
        initial={editingGroups ?? ''}
        resumed={groupsResumed && !actions.setGroups.isError}
        busy={actions.setGroups.isPending}
        error={shownFailure(actions.setGroups.error)}
        onCancel={closeGroups}
        onSave={(typed, groups) =>
          start({ action: 'groups', groups: typed }, actions.setGroups, groups, (error) => {
            if (!error) closeGroups();
          })
        }
      />
    </div>
  );
}
