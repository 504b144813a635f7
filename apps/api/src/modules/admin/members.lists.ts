import type { AdminMember } from '@ums/contracts';
import { sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { accountDeletions, accounts, accountSearchText, listCounts, userDetails } from '../../db/schema/index.js';
import { isoTime, jsonObject, key, tableAs, type ListDefinition } from '../lists/list-statements.js';

const a = alias(accounts, 'a');
const u = alias(userDetails, 'u');
const d = alias(accountDeletions, 'd');

/** One directory entry as JSON, from `memberFrom`. */
export const memberItem = jsonObject<AdminMember>({
  id: a.accountId,
  email: a.email,
  firstName: sql<string | null>`coalesce(${u.firstName}, ${a.firstName})`,
  lastName: sql<string | null>`coalesce(${u.lastName}, ${a.lastName})`,
  groups: a.groups,
  createdAt: isoTime(a.createdAt),
  emailVerified: a.emailVerified,
  // Null where the account has no pending deletion (the outer join finds none).
  deletionPendingUntil: sql<string | null>`${isoTime(d.deleteAfter)}`,
});

export const memberFrom = sql`${tableAs(accounts, 'a')}
  left join ${tableAs(userDetails, 'u')} on ${u.subject} = ${a.accountId}::text
  left join ${tableAs(accountDeletions, 'd')} on ${d.subject} = ${a.accountId}::text`;

/** The account id of `memberFrom`'s row: where one member is read. */
export const memberKey = a.accountId;

/** The administrators' member directory: every account of the embedded provider, searchable by email and name. */
export const memberDirectoryList: ListDefinition<'members'> = {
  list: 'members',
  name: 'members',
  from: memberFrom,
  // The text of the directory's trigram and digit-run indexes (accounts_search_trgm_idx, accounts_search_digits_idx).
  search: ({ contains }) => contains(accountSearchText(a)),
  digitRunsIndexed: true,
  searchCountCapped: true,
  sorts: {
    // Emails are unique whatever their case: the lower-case email orders the accounts totally.
    email: { keys: [key(sql`lower(${a.email})`, 'text')] },
    createdAt: { keys: [key(a.createdAt), key(sql`${a.accountId}::text`, 'text')], seek: 1 },
  },
  item: memberItem,
  total: sql`(select coalesce((select ${listCounts.n} from ${listCounts} where ${listCounts.key} = 'accounts'), 0))`,
};
