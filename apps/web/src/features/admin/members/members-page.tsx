import {
  Badge,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import type { AdminMember } from '@ums/contracts';
import { Link } from 'react-router';
import { ListToolbar, LoadMore } from '../../../components/list-controls.js';
import { adminPaths } from '../admin-paths.js';
import { formatShortDate } from '../../../lib/format.js';
import { useListView } from '../../../lib/paged-list.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { ListState } from '../components/list-state.js';
import { useConsoleRights } from '../console-roles.js';
import { useMemberList } from './api.js';
import { MEMBERS } from './messages.js';

const useStyles = makeStyles({
  tableWrap: { overflowX: 'auto' },
  unverified: { marginInlineStart: tokens.spacingHorizontalS },
});

export const memberName = (member: Pick<AdminMember, 'firstName' | 'lastName'>) =>
  [member.firstName, member.lastName].filter(Boolean).join(' ');

/** A member's standing: active, or the day their closed account will be deleted. */
export function MemberStatus({ member }: { member: AdminMember }) {
  return member.deletionPendingUntil ? (
    <Badge appearance="tint" color="danger">
      {MEMBERS.deletionPending(formatShortDate(member.deletionPendingUntil))}
    </Badge>
  ) : (
    <Badge appearance="tint" color="success">
      {MEMBERS.active}
    </Badge>
  );
}

/** Beside an address the member has not confirmed; nothing beside a confirmed one. */
export function UnverifiedEmailBadge({ member }: { member: Pick<AdminMember, 'emailVerified'> }) {
  const styles = useStyles();
  return member.emailVerified ? null : (
    <Badge className={styles.unverified} size="small" appearance="outline" color="warning">
      {MEMBERS.unverified}
    </Badge>
  );
}

/** The member directory: search by email or name, sort, and page through every account. */
export function MembersPage() {
  const admin = useAdminStyles();
  const styles = useStyles();
  const view = useListView();
  const members = useMemberList(view);
  const shown = members.rows;
  // The whole directory as a file is Admin's alone (README, "Console roles").
  const { can } = useConsoleRights();
  return (
    <div className={admin.page}>
      <div className={admin.header}>
        <h1 className={admin.title}>{MEMBERS.title}</h1>
      </div>
      <ListToolbar
        searchLabel={MEMBERS.search}
        view={view}
        sorts={MEMBERS.sorts}
        {...(can('membersExport') ? { exportCsv: { path: '/admin/members', file: 'members' } } : {})}
      />
      <ListState list={members} q={view.q} texts={MEMBERS}>
        <div className={styles.tableWrap}>
          <Table aria-label={MEMBERS.title}>
            <TableHeader>
              <TableRow>
                {Object.values(MEMBERS.columns).map((label) => (
                  <TableHeaderCell key={label}>{label}</TableHeaderCell>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((member) => (
                <TableRow key={member.id}>
                  <TableCell>
                    <Link to={`${adminPaths.members}/${member.id}`}>{member.email}</Link>
                    <UnverifiedEmailBadge member={member} />
                  </TableCell>
                  <TableCell>{memberName(member)}</TableCell>
                  <TableCell>{member.groups.join(', ') || MEMBERS.noGroups}</TableCell>
                  <TableCell>{formatShortDate(member.createdAt)}</TableCell>
                  <TableCell>
                    <MemberStatus member={member} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <LoadMore list={members} />
        </div>
      </ListState>
    </div>
  );
}
