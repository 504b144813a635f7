import { createHash, randomBytes } from 'node:crypto';
import { SECURITY_ACTIVITY_DAYS, SECURITY_MESSAGES, type DeviceSession, type SecurityEventName } from '@ums/contracts';
import type { ConsoleRole } from '@ums/contracts/roles';
import { and, eq, gt, isNotNull, isNull, lt, notExists, or, sql } from 'drizzle-orm';
import type { AppConfig } from '../config/env.js';
import { excluded, namedStatement, placeholders, statementBuilder as builder, type Database } from '../db/client.js';
import { accounts, knownDevices, oidcPayloads, securityEvents, sessionDetails } from '../db/schema/index.js';
import { consoleRolesMail, securityAlert, type AlertKind, type RolesChangedBy } from '../mail/alerts.js';
import { enqueueMail, queueSealedMail, sealedMail } from '../mail/outbox.js';
import { conflict, notFound } from '../plugins/http-errors.js';
import { columnName } from '../modules/lists/list-statements.js';
import { cookieValue } from './cookies.js';
import { mailContext } from './password-reset.js';
import { alertOrigin, recordSecurityEvent, type RequestOrigin } from './security-events.js';
import { forgetAttempts, type Forgotten } from './attempt-limiter.js';
import { endAccountSessions, endSession, lockAccountSession, sessionGrants } from './sessions.js';
import { summariseUserAgent } from './user-agent.js';
import type { KeyService } from '../secrets/key-service.js';
import { isAccountId } from './account-id.js';

type Executor = Pick<Database, 'execute' | 'select' | 'insert'>;

/** The browser's device cookie: a random id, sent only to the provider's pages, that says "seen before". */
export const DEVICE_COOKIE = 'ums_device';
/** A browser not seen for an account this long is a new device for it. */
const DEVICE_MEMORY_DAYS = SECURITY_ACTIVITY_DAYS;
const DEVICE_ID = /^[A-Za-z0-9_-]{43}$/;

export const newDeviceId = () => randomBytes(32).toString('base64url');
/** The device id if the browser sent a well-formed one. */
export const deviceIdFrom = (cookieHeader: string | undefined) => cookieValue(cookieHeader, DEVICE_COOKIE, DEVICE_ID);
const deviceHash = (deviceId: string) => createHash('sha256').update(deviceId).digest('hex');
/** A device last seen after this is one the account remembers. */
const rememberedSince = sql`clock_timestamp() - make_interval(days => ${DEVICE_MEMORY_DAYS})`;

/**
 * What every sign-in and every answered authorization writes, as named prepared statements (decision 041). Most
 * sign-ins are from a device the account knows (or its first device ever): remembering the device and recording the
 * sign-in is then one statement, whose data-modifying parts see the devices as they were before it.
 */
const signedInWith = placeholders(
  'accountId',
  'hash',
  'event',
  'browser',
  'os',
  'ipAddress',
  'forgetIds',
  'forgetKeys',
);
const signInFromKnownDevice = namedStatement<{ fresh: boolean; email: string | null }>(
  'security_signed_in',
  sql`
    with seen as (
      select not exists(select 1 from ${knownDevices}
                        where ${knownDevices.accountId} = ${signedInWith.accountId}
                          and ${knownDevices.deviceHash} = ${signedInWith.hash}
                          and ${knownDevices.lastSeenAt} > ${rememberedSince})
             and exists(select 1 from ${knownDevices} where ${knownDevices.accountId} = ${signedInWith.accountId}) as fresh
    ), remembered as (
      insert into ${knownDevices} (${columnName(knownDevices.accountId)}, ${columnName(knownDevices.deviceHash)})
      select ${signedInWith.accountId}::text, ${signedInWith.hash}::text from seen where not fresh
      on conflict (${columnName(knownDevices.accountId)}, ${columnName(knownDevices.deviceHash)})
      do update set ${columnName(knownDevices.lastSeenAt)} = clock_timestamp()
    ), recorded as (
      insert into ${securityEvents} (${columnName(securityEvents.subject)}, ${columnName(securityEvents.event)},
        ${columnName(securityEvents.browser)}, ${columnName(securityEvents.os)}, ${columnName(securityEvents.ipAddress)})
      select ${signedInWith.accountId}::text, ${signedInWith.event}::text, ${signedInWith.browser}::text,
             ${signedInWith.os}::text, ${signedInWith.ipAddress}::text
      from seen where not fresh
    ), forgotten as (
      ${forgetAttempts(signedInWith.forgetIds, signedInWith.forgetKeys)}
    )
    select fresh,
           case when fresh then (select ${accounts.email} from ${accounts}
                                 where ${isAccountId(accounts.accountId, signedInWith.accountId)}) end as email
    from seen`,
);
const newDevice = placeholders('accountId', 'hash', 'browser', 'os', 'ipAddress', 'recipient', 'subject', 'body');
/**
 * A sign-in from a device the account has not seen (the rare case `security_signed_in` answers fresh): the device
 * remembered, the sign-in and the new device recorded, in that order, and the alert queued (none when the account has
 * no address to send it to), in one statement, so all of it is written or none.
 */
const signInFromNewDevice = namedStatement(
  'security_new_device',
  sql`
    with remembered as (
      insert into ${knownDevices} (${columnName(knownDevices.accountId)}, ${columnName(knownDevices.deviceHash)})
      values (${newDevice.accountId}::text, ${newDevice.hash}::text)
      on conflict (${columnName(knownDevices.accountId)}, ${columnName(knownDevices.deviceHash)})
      do update set ${columnName(knownDevices.lastSeenAt)} = clock_timestamp()
    ), recorded as (
      insert into ${securityEvents} (${columnName(securityEvents.subject)}, ${columnName(securityEvents.event)},
        ${columnName(securityEvents.browser)}, ${columnName(securityEvents.os)}, ${columnName(securityEvents.ipAddress)})
      select ${newDevice.accountId}::text, event, ${newDevice.browser}::text, ${newDevice.os}::text,
             ${newDevice.ipAddress}::text
      from unnest(array[${'sign-in' satisfies SecurityEventName}, ${'new-device' satisfies SecurityEventName}]::text[])
           with ordinality as recorded(event, n)
      order by n
    ), mailed as (
      ${queueSealedMail(newDevice)}
      where ${newDevice.recipient}::text is not null
    )
    select 1 as done`,
);
const usedBy = placeholders('sessionUid', 'accountId', 'browser', 'os', 'ipAddress');
/**
 * A provider session's use recorded for the member's devices list: one row per session, with where and when it was
 * last used (its placeholders name the session's uid, its account, and the browser, system and address that used it).
 * The embedded provider's store sends it with the session's save (decision 055).
 */
export const sessionUsed = builder
  .insert(sessionDetails)
  .values({
    sessionUid: usedBy.sessionUid,
    accountId: usedBy.accountId,
    browser: usedBy.browser,
    os: usedBy.os,
    ipAddress: usedBy.ipAddress,
  })
  .onConflictDoUpdate({
    target: sessionDetails.sessionUid,
    set: {
      lastActiveAt: sql`clock_timestamp()`,
      browser: excluded(sessionDetails.browser),
      os: excluded(sessionDetails.os),
      ipAddress: excluded(sessionDetails.ipAddress),
    },
  })
  .getSQL();
const sessionDetailsUsed = namedStatement('session_details_used', sessionUsed);
/** What a session's use records of the request that used it (see `sessionDetailsUpsert`). */
export function sessionUseOf(origin: RequestOrigin): { browser: string; os: string; ipAddress: string | null } {
  const { browser, os } = summariseUserAgent(origin.userAgent);
  return { browser, os, ipAddress: origin.ipAddress };
}

/** When the provider session signed in, from its payload (seconds since the epoch). */
const loginTime = sql`to_timestamp((${oidcPayloads.payload}->>'loginTs')::float8)`;
/** A provider session that has not expired. */
const liveSession = and(
  sql`${oidcPayloads.model} = 'Session'`,
  or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, sql`clock_timestamp()`)),
);

/**
 * The members' security centre on the embedded provider: the activity it records (sign-ins, failures, new devices,
 * sign-outs), the devices list and ending sessions, and the alerts that go by mail. Alerts are queued in the same
 * transaction as the change they tell of and delivered afterwards (`kickMail`).
 */
export function createSecurityService({
  db,
  config,
  secrets,
  kickMail = () => undefined,
}: {
  db: Database;
  config: Pick<AppConfig, 'publicUrl' | 'web' | 'auth'>;
  /** Seals the alerts' bodies in the outbox. */
  secrets: KeyService;
  kickMail?: () => void;
}) {
  /** The alert of `kind` to the address `to`, telling where and when it happened. */
  const alertTo = (to: string, kind: AlertKind, origin: RequestOrigin) =>
    securityAlert(kind, mailContext(config, to), alertOrigin(origin));

  async function queueAlert(
    tx: Executor,
    accountId: string,
    kind: AlertKind,
    origin: RequestOrigin,
    fallbackEmail?: string | null,
  ) {
    const [row] = await tx
      .select({ email: accounts.email })
      .from(accounts)
      .where(isAccountId(accounts.accountId, accountId));
    const to = row?.email ?? fallbackEmail;
    if (!to) return;
    await enqueueMail(tx, alertTo(to, kind, origin), secrets);
  }

  /**
   * The account's live sessions, the calling one first, then the most recently used. Read on the pool, outside any
   * transaction of the caller's, as it always was.
   */
  async function sessionsOf(accountId: string, currentGrant: string | null) {
    const rows = await db
      .select({
        id: sql<string>`${oidcPayloads.uid}`,
        createdAt: sql`coalesce(${sessionDetails.createdAt}, ${loginTime})`.mapWith(sessionDetails.createdAt),
        lastActiveAt: sql`coalesce(${sessionDetails.lastActiveAt}, ${sessionDetails.createdAt}, ${loginTime})`.mapWith(
          sessionDetails.lastActiveAt,
        ),
        browser: sessionDetails.browser,
        os: sessionDetails.os,
        ipAddress: sessionDetails.ipAddress,
        grants: sessionGrants,
      })
      .from(oidcPayloads)
      .leftJoin(sessionDetails, eq(sessionDetails.sessionUid, oidcPayloads.uid))
      .where(and(liveSession, sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`, isNotNull(oidcPayloads.uid)));
    return rows
      .map((row) => ({ ...row, current: currentGrant !== null && row.grants.includes(currentGrant) }))
      .sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.getTime() - a.lastActiveAt.getTime());
  }

  return {
    /**
     * The account's console roles changed (see `memberGroupsEntity`): the member is told by mail, queued in the
     * transaction of the change (`kickMail` after it commits). Roles are named by their configured groups.
     */
    async rolesChanged(
      tx: Executor,
      accountId: string,
      before: ConsoleRole[],
      after: ConsoleRole[],
      by: RolesChangedBy,
    ): Promise<void> {
      const [row] = await tx
        .select({ email: accounts.email })
        .from(accounts)
        .where(isAccountId(accounts.accountId, accountId));
      if (!row) return;
      const named = (roles: ConsoleRole[]) => roles.map((role) => config.auth.roleGroups[role]);
      await enqueueMail(
        tx,
        consoleRolesMail(mailContext(config, row.email), named(before), named(after), new Date(), by),
        secrets,
      );
    },
    /**
     * A change to the account's sign-in methods (a second factor added or removed, recovery codes made or one used):
     * recorded and queued as mail in the transaction of the change (`kickMail` after it commits).
     */
    async factorEvent(
      tx: Executor,
      accountId: string,
      event:
        | 'factor-added'
        | 'factor-removed'
        | 'recovery-codes-regenerated'
        | 'recovery-code-used'
        | 'sign-in-methods-reset',
      origin: RequestOrigin,
    ): Promise<void> {
      await recordSecurityEvent(tx, accountId, event === 'sign-in-methods-reset' ? 'factor-removed' : event, origin);
      await queueAlert(tx, accountId, event, origin);
    },
    /**
     * A successful sign-in through our page: recorded, with the device remembered; a device the account has not
     * seen for 90 days (when it has signed in before) is a new device, recorded and told to the member by mail.
     * The attempts it `forgets` (its reservation, the failures its password forgives) go in the same statement
     * (decision 055).
     */
    async signedIn(
      accountId: string,
      origin: RequestOrigin,
      deviceId: string,
      forgets: Forgotten = { ids: [], keys: [] },
    ): Promise<void> {
      const hash = deviceHash(deviceId);
      const { browser, os } = summariseUserAgent(origin.userAgent);
      const [row] = await signInFromKnownDevice(db, {
        accountId,
        hash,
        event: 'sign-in' satisfies SecurityEventName,
        browser,
        os,
        ipAddress: origin.ipAddress,
        forgetIds: forgets.ids,
        forgetKeys: forgets.keys,
      });
      if (!row?.fresh) return;
      // A new device: remembered, recorded and told to the member together, or not at all.
      const alert = row.email ? await sealedMail(alertTo(row.email, 'new-device', origin), secrets) : null;
      await signInFromNewDevice(db, {
        accountId,
        hash,
        browser,
        os,
        ipAddress: origin.ipAddress,
        recipient: alert?.recipient ?? null,
        subject: alert?.subject ?? null,
        body: alert?.body ?? null,
      });
      kickMail();
    },

    /**
     * Whether this browser (its device cookie) has signed in to the account with this email within the 90 days a
     * device is remembered. The cookie is 256 random bits and only its hash is kept, per account: it cannot be made up.
     */
    async isKnownDevice(email: string, deviceId: string): Promise<boolean> {
      const { rows } = await db.execute<{ known: boolean }>(sql`
        select exists(
          select 1 from ${knownDevices} join ${accounts} on ${accounts.accountId}::text = ${knownDevices.accountId}
          where lower(${accounts.email}) = lower(${email}) and ${knownDevices.deviceHash} = ${deviceHash(deviceId)}
            and ${knownDevices.lastSeenAt} > ${rememberedSince}) as known`);
      return rows[0]?.known ?? false;
    },

    /** A wrong password for an existing account (unknown emails have no activity to record it in). */
    async signInFailed(email: string, origin: RequestOrigin): Promise<void> {
      const [row] = await db
        .select({ accountId: accounts.accountId })
        .from(accounts)
        .where(sql`lower(${accounts.email}) = lower(${email})`);
      if (row) await recordSecurityEvent(db, row.accountId, 'sign-in-failed', origin);
    },

    /** In the password change's transaction: the activity entry and the alert. */
    async passwordChanged(tx: Executor, subject: string, origin: RequestOrigin, email: string | null) {
      await recordSecurityEvent(tx, subject, 'password-changed', origin);
      await queueAlert(tx, subject, 'password-changed', origin, email);
    },
    kickMail,

    /** The provider answered an authorization for this session: where and when it was last used. */
    async sessionUsed(sessionUid: string, accountId: string, origin: RequestOrigin): Promise<void> {
      await sessionDetailsUsed(db, { sessionUid, accountId, ...sessionUseOf(origin) });
    },

    /** The member signed out through the provider. */
    async signedOut(accountId: string, origin: RequestOrigin): Promise<void> {
      await recordSecurityEvent(db, accountId, 'signed-out', origin);
    },

    /** The member's live sessions, the calling one first, then the most recently used. */
    async listSessions(accountId: string, currentGrant: string | null): Promise<DeviceSession[]> {
      return (await sessionsOf(accountId, currentGrant)).map((row) => ({
        id: row.id,
        current: row.current,
        createdAt: row.createdAt.toISOString(),
        lastActiveAt: row.lastActiveAt.toISOString(),
        browser: row.browser ?? 'Unknown browser',
        os: row.os ?? 'Unknown system',
        ipAddress: row.ipAddress,
      }));
    },

    /**
     * Ends one of the member's sessions: its provider session, grants, refresh tokens and codes go, and its access
     * tokens stop working at once on every API process. Another member's session id is not found (404); the
     * calling session cannot end itself here (409).
     */
    async endSession(accountId: string, sessionId: string, currentGrant: string | null, origin: RequestOrigin) {
      await db.transaction(async (tx) => {
        const grants = await lockAccountSession(tx, accountId, sessionId);
        if (!grants) throw notFound('The session');
        if (currentGrant !== null && grants.includes(currentGrant)) throw conflict(SECURITY_MESSAGES.currentSession);
        await endSession(tx, sessionId, grants);
        await recordSecurityEvent(tx, accountId, 'session-ended', origin);
      });
    },

    /** "Sign out everywhere else": every session but the calling one ends, and the member is told by mail. */
    async endOtherSessions(accountId: string, currentGrant: string | null, origin: RequestOrigin): Promise<number> {
      // Without the caller's grant "every other session" would be every session, the caller's included.
      if (currentGrant === null) throw conflict(SECURITY_MESSAGES.unknownCurrent);
      const ended = await db.transaction(async (tx) => {
        const others = (await sessionsOf(accountId, currentGrant)).filter((s) => !s.current);
        await endAccountSessions(tx, accountId, { keepGrant: currentGrant });
        for (let i = 0; i < others.length; i++) await recordSecurityEvent(tx, accountId, 'session-ended', origin);
        await queueAlert(tx, accountId, 'signed-out-everywhere', origin);
        return others.length;
      });
      kickMail();
      return ended;
    },
  };
}
export type SecurityService = ReturnType<typeof createSecurityService>;

/**
 * Details of sessions that no longer exist (signed out, ended, expired: the devices list starts from live sessions,
 * so it never shows them) and devices not seen for over a year go.
 */
export async function sweepSecurityDetails(db: Database): Promise<void> {
  await db.delete(sessionDetails).where(
    and(
      lt(sessionDetails.lastActiveAt, sql`clock_timestamp() - interval '1 hour'`),
      notExists(
        db
          .select({ one: sql`1` })
          .from(oidcPayloads)
          .where(and(sql`${oidcPayloads.model} = 'Session'`, eq(oidcPayloads.uid, sessionDetails.sessionUid))),
      ),
    ),
  );
  await db.delete(knownDevices).where(lt(knownDevices.lastSeenAt, sql`clock_timestamp() - interval '400 days'`));
}
