import { sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppConfig } from '../config/env.js';
import { insertSelect, namedStatement, placeholders, type Database } from '../db/client.js';
import { oidcPayloads, sessionDetails } from '../db/schema/index.js';
import { columnName, tableAs } from '../modules/lists/list-statements.js';

/** "Keep me signed in": the session cookie outlives the browser, for at most 30 days after sign-in. */
export const REMEMBERED = { idle: 7 * 24 * 3600, max: 30 * 24 * 3600 } as const;

export interface SessionLimits {
  /** Seconds a session may go unused. */
  idle: number;
  /** Seconds after sign-in at which a session ends whatever happens. */
  max: number;
}

/** Ordinary sessions use the configured limits; remembered ones (not transient) the longer fixed ones. */
export const limitsFor = (sessions: AppConfig['sessions'], transient: boolean | undefined): SessionLimits =>
  transient ? { idle: sessions.idle, max: sessions.max } : REMEMBERED;

/** Seconds the session may live from now: the idle limit, cut short by the absolute one (at least 1 s). */
export function sessionTtl(limits: SessionLimits, loginTs: number | undefined, now = Math.floor(Date.now() / 1000)) {
  const left = (loginTs ?? now) + limits.max - now;
  return Math.max(1, Math.min(limits.idle, left));
}

const used = placeholders('model', 'id', 'consumedAt', 'idle', 'max');
const next = placeholders('nextId', 'nextPayload', 'nextGrantId', 'nextExpiresAt');
const o = oidcPayloads;
const p = alias(oidcPayloads, 'p');
const transient = sql`(${o.payload}->>'transient')::boolean`;
const seconds = (value: SQL) => sql`${value}::double precision`;
/**
 * A refresh token used, and its session with it (decisions 041, 044 and 050): the token is marked consumed only if
 * nobody did first, and only then is its session touched. A refresh is use of the session: its idle time starts again,
 * never past the absolute limit, and the member's devices list shows it used now. The web app renews its tokens
 * through the token endpoint, which does not save the session itself, and the token is consumed there once every
 * check has passed (rotation), so a refused refresh touches nothing. `consumed` holds the token's id when this
 * statement used it.
 */
const consumedAndTouched = sql`
    consumed as (
      update ${o} set ${columnName(o.consumedAt)} = ${used.consumedAt}::timestamptz
      where ${o.model} = ${used.model} and ${o.id} = ${used.id} and ${o.consumedAt} is null
      returning ${o.id} as id, ${o.payload}->>'sessionUid' as session_uid
    ), details as (
      update ${sessionDetails} set ${columnName(sessionDetails.lastActiveAt)} = clock_timestamp()
      where ${sessionDetails.sessionUid} = (select session_uid from consumed)
    ), s as (
      select ${o.id} as id, least(
        clock_timestamp() + make_interval(secs => case when ${transient} then ${seconds(used.idle)} else ${seconds(sql`${REMEMBERED.idle}`)} end),
        to_timestamp((${o.payload}->>'loginTs')::double precision
          + case when ${transient} then ${seconds(used.max)} else ${seconds(sql`${REMEMBERED.max}`)} end)
      ) as until
      from ${o}
      where ${o.model} = 'Session' and ${o.uid} = (select session_uid from consumed) and ${o.expiresAt} > clock_timestamp()
    ), touched as (
      update ${tableAs(oidcPayloads, 'p')}
      set ${columnName(o.expiresAt)} = s.until,
          ${columnName(o.payload)} = jsonb_set(${p.payload}, '{exp}', to_jsonb(floor(extract(epoch from s.until))::bigint))
      from s
      where ${p.model} = 'Session' and ${p.id} = s.id
    )`;
/** The refresh token issued with a use, stored only if this statement made the use (its CTE `consumed`). */
const issuedIfUsed = sql`issued as (
      ${insertSelect(o, [
        [o.model, sql`'RefreshToken'`],
        [o.id, next.nextId],
        [o.payload, next.nextPayload],
        [o.grantId, next.nextGrantId],
        [o.expiresAt, next.nextExpiresAt],
      ])}
      where exists (select from consumed)
    )`;
/** The placeholders' values of `issuedIfUsed`. */
const issuedValues = (refreshToken: NextRefreshToken) => ({
  nextId: refreshToken.id,
  nextPayload: refreshToken.payload,
  nextGrantId: refreshToken.grantId,
  nextExpiresAt: refreshToken.expiresAt,
});

/**
 * A refresh token rotated in one statement (decision 050): the token used and its session touched (above), and the
 * token that replaces it stored only if this statement used the old one, so a request that lost the race stores
 * nothing.
 */
const rotate = namedStatement<{ id: string }>(
  'oidc_rotate_refresh_token',
  sql`with ${consumedAndTouched}, ${issuedIfUsed} select id from consumed`,
);

/**
 * An authorization code exchanged in one statement (decision 057): the code used, and the refresh token issued for it
 * stored only if this statement used the code, as a rotation stores its replacement. A code's exchange follows the
 * authorization that has just saved its session: it touches no session.
 */
const exchange = namedStatement<{ id: string }>(
  'oidc_exchange_code',
  sql`with consumed as (
      update ${o} set ${columnName(o.consumedAt)} = ${used.consumedAt}::timestamptz
      where ${o.model} = ${used.model} and ${o.id} = ${used.id} and ${o.consumedAt} is null
      returning ${o.id} as id
    ), ${issuedIfUsed}
    select id from consumed`,
);

/**
 * Uses an authorization code (by its stored key) at `consumedAt` unless it was already, and only then stores the
 * refresh token issued for it, in one statement. Whether this request was the one that used it; if not, nothing was
 * stored.
 */
export async function exchangeCode(
  db: Database,
  key: { model: string; id: string },
  consumedAt: Date,
  refreshToken: NextRefreshToken,
): Promise<boolean> {
  const [won] = await exchange(db, { ...key, consumedAt, ...issuedValues(refreshToken) });
  return won !== undefined;
}

/** The refresh token that replaces a used one, as the adapter stores it (its id hashed, its payload without it). */
export interface NextRefreshToken {
  id: string;
  payload: string;
  grantId: string | null;
  expiresAt: Date | null;
}

/**
 * Rotates a refresh token (the used one by its stored id): marks it used at `consumedAt` unless it was already,
 * touching its session, and only then stores `replacement`, in one statement. Whether this request was the one that
 * used it; if not, nothing was stored.
 */
export async function rotateRefreshToken(
  db: Database,
  sessions: AppConfig['sessions'],
  key: { model: string; id: string },
  consumedAt: Date,
  replacement: NextRefreshToken,
): Promise<boolean> {
  const ordinary = limitsFor(sessions, true);
  const [won] = await rotate(db, {
    ...key,
    consumedAt,
    idle: ordinary.idle,
    max: ordinary.max,
    ...issuedValues(replacement),
  });
  return won !== undefined;
}
