import type { SecurityActivity } from '@ums/contracts';
import { sql, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { securityEvents } from '../../db/schema/index.js';
import {
  isoTime,
  jsonObject,
  jsonTime,
  key,
  scopeValue,
  tableAs,
  type JsonFields,
  type ListDefinition,
} from '../lists/list-statements.js';

const e = alias(securityEvents, 'e');

/** An event's fields but its time, from `security_events e`. */
const eventFields: JsonFields<Omit<SecurityActivity, 'at'>> = {
  // Written only from SECURITY_EVENTS (security events are recorded by the API itself).
  event: sql<SecurityActivity['event']>`${e.event}`,
  browser: e.browser,
  os: e.os,
  ipAddress: e.ipAddress,
};

/**
 * The caller's (`scopeValue(0)`) security activity, newest first; a search finds an event, a browser, a system or an
 * address.
 */
export const activityList: ListDefinition<'activity'> = {
  list: 'activity',
  name: 'activity',
  from: tableAs(securityEvents, 'e'),
  scope: sql`${e.subject} = ${scopeValue(0)}`,
  search: ({ contains }) =>
    sql`${contains(e.event)} or ${contains(e.browser)} or ${contains(e.os)} or ${contains(e.ipAddress)}`,
  sorts: { at: { keys: [key(e.at), key(e.id)] } },
  item: jsonObject<SecurityActivity>({ at: isoTime(e.at), ...eventFields }),
  total: sql`(select count(*) from ${securityEvents} where ${securityEvents.subject} = ${scopeValue(0)})`,
};

/** Every security event of `subject` as held (the data export), newest first. */
export const heldActivityOf = (subject: SQLWrapper) => sql<SecurityActivity[]>`coalesce((
  select json_agg(${jsonObject<SecurityActivity>({ at: jsonTime(e.at), ...eventFields })} order by ${e.at} desc, ${e.id} desc)
  from ${tableAs(securityEvents, 'e')} where ${e.subject} = ${subject}), '[]'::json)`;
