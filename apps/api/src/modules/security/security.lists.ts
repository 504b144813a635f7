import { legacyKey as key, type ListSpec } from '../lists/list-statements.js';

/** The caller's ($1) security activity, newest first; a search finds an event, a browser, a system or an address. */
export const activityList: ListSpec<'activity'> = {
  list: 'activity',
  name: 'activity',
  from: 'security_events e',
  scope: 'e.subject = $1',
  scopeValues: 1,
  search:
    'e.event ilike {pattern} or e.browser ilike {pattern} or e.os ilike {pattern} or e.ip_address ilike {pattern}',
  sorts: { at: { keys: [key('e.at', 'timestamptz'), key('e.id', 'int8')] } },
  item: `json_build_object(
    'at', to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'event', e.event,
    'browser', e.browser, 'os', e.os, 'ipAddress', e.ip_address)`,
  total: '(select count(*) from security_events where subject = $1)',
};
