import { legacyKey as key, type ListSpec } from '../lists/list-statements.js';

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** One directory entry as JSON, from `accounts a`, `user_details u` and `account_deletions d`. */
export const MEMBER_ITEM = `json_build_object(
  'id', a.account_id, 'email', a.email,
  'firstName', coalesce(u.first_name, a.first_name), 'lastName', coalesce(u.last_name, a.last_name),
  'groups', a.groups, 'createdAt', ${iso('a.created_at')}, 'deletionPendingUntil', ${iso('d.delete_after')})`;

export const MEMBER_FROM = `accounts a
  left join user_details u on u.subject = a.account_id::text
  left join account_deletions d on d.subject = a.account_id::text`;

/** The administrators' member directory: every account of the embedded provider, searchable by email and name. */
export const memberDirectoryList: ListSpec<'members'> = {
  list: 'members',
  name: 'members',
  from: MEMBER_FROM,
  scopeValues: 0,
  // One trigram index answers it (accounts_search_trgm_idx): the expression must stay exactly this.
  search: `(a.email || ' ' || coalesce(a.first_name, '') || ' ' || coalesce(a.last_name, '')) ilike {pattern}`,
  sorts: {
    // Emails are unique whatever their case: the lower-case email orders the accounts totally.
    email: { keys: [key('lower(a.email)', 'text')] },
    createdAt: { keys: [key('a.created_at', 'timestamptz'), key('a.account_id::text', 'text')], seek: 1 },
  },
  item: MEMBER_ITEM,
  total: `(select coalesce((select n from list_counts where key = 'accounts'), 0))`,
};
