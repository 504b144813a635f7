import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import { decodeJwt } from 'jose';
import Provider, { errors, type Adapter, type AdapterPayload, type KoaContextWithOIDC } from 'oidc-provider';
import type { AppConfig } from '../config/env.js';
import {
  columnList,
  excluded,
  namedStatement,
  placeholders,
  statementBuilder as builder,
  type Database,
  type Nullable,
} from '../db/client.js';
import { oidcPayloads } from '../db/schema/index.js';
import { tableAs } from '../modules/lists/list-statements.js';
import type { KeyService } from '../secrets/key-service.js';
import { accountForTokensOf, tokensAccountOf, type TokensAccount, type TokensAccountRow } from './accounts.service.js';
import { revokeGrant } from './revocations.js';
import { exchangeCode, rotateRefreshToken } from './session-lifetime.js';
import { originOf } from './security-events.js';
import { sessionUsed, sessionUseOf } from './security.service.js';

/** How a refused reuse names the credential to the client (oidc-provider's own wording). */
const CREDENTIAL_NAMES: Record<string, string> = {
  RefreshToken: 'refresh token',
  AuthorizationCode: 'authorization code',
};

/**
 * How long a DPoP proof's id is kept once seen (see `claim`). oidc-provider accepts a proof whose `iat` is up to its
 * CHALLENGE_OK_WINDOW (5 minutes) either side of now, so one proof can be presented for 10 minutes: kept that long, a
 * replay is refused for as long as the proof itself would be taken (the provider's own record, kept 5 minutes from
 * its use, let a proof dated ahead come back once the record had gone). `upsert` asks for 5 minutes from now by the
 * server's clock and the claim counts from PostgreSQL's; 10 minutes covers both.
 */
export const REPLAY_CLAIM_SECONDS = 600;

/**
 * The id of a stored row. A row's id is the credential itself for most models (a refresh token, an authorization code,
 * the session and interaction cookies' values): only its SHA-256 is stored, so a copy of the database holds nothing
 * that works. Grants keep their ids: a grant id is no credential, and sessions and tokens refer to it.
 */
export function storedId(model: string, id: string): string {
  return model === 'Grant' ? id : createHash('sha256').update(id).digest('hex');
}

/**
 * The statements every sign-in and refresh sends (10 and 2), as named prepared statements (decision
 * 041): their text is built once, at load, and PostgreSQL plans each once per connection.
 */
const stored = placeholders(
  'model',
  'id',
  'uid',
  'userCode',
  'payload',
  'grantId',
  'expiresAt',
  'consumedAt',
  'proofId',
);
const storedKey = and(eq(oidcPayloads.model, stored.model), eq(oidcPayloads.id, stored.id));
const liveRow = (expiresAt: PgColumn) => sql`(${expiresAt} is null or ${expiresAt} > now())`;
const live = liveRow(oidcPayloads.expiresAt);
type StoredPayload = AdapterPayload & { sealedJti?: string };
type StoredRow = { payload: StoredPayload; consumedAt: Date | null };
/** A row's payload and when it was consumed, named as `StoredRow` names them (a builder sets its conditions on itself). */
const readStored = () =>
  builder
    .select({
      payload: sql`${oidcPayloads.payload}`.as('payload'),
      consumedAt: sql`${oidcPayloads.consumedAt}`.as('consumedAt'),
    })
    .from(oidcPayloads);
const findStored = namedStatement<StoredRow>('oidc_find', readStored().where(and(storedKey, live)).getSQL());
const findStoredByUid = namedStatement<StoredRow>(
  'oidc_find_by_uid',
  readStored()
    .where(and(eq(oidcPayloads.model, stored.model), eq(oidcPayloads.uid, stored.uid), live))
    .getSQL(),
);
const findStoredByUserCode = namedStatement<StoredRow>(
  'oidc_find_by_user_code',
  readStored()
    .where(and(eq(oidcPayloads.model, stored.model), eq(oidcPayloads.userCode, stored.userCode), live))
    .getSQL(),
);
/**
 * A code or refresh token with the session, the grant and the account it was issued under, in one statement (decision
 * 044): the token endpoint reads all four, one after another, for every code exchange and refresh (see `readAhead`).
 * Each is found by what the token's payload names, as the provider's own look-ups ask for them. The
 * session and the grant are null when gone or expired, as their own look-ups would have found them; the account's
 * columns are null when it is gone, or the payload names no account id.
 */
const session = alias(oidcPayloads, 'session');
const grant = alias(oidcPayloads, 'grant');
const token = oidcPayloads;
type BoundRow = StoredRow & {
  sessionPayload: StoredPayload | null;
  sessionConsumedAt: Date | null;
  grantPayload: StoredPayload | null;
  grantConsumedAt: Date | null;
} & Nullable<TokensAccountRow>;
const withBindings = sql`select ${token.payload} as "payload", ${token.consumedAt} as "consumedAt",
      ${session.payload} as "sessionPayload", ${session.consumedAt} as "sessionConsumedAt",
      ${grant.payload} as "grantPayload", ${grant.consumedAt} as "grantConsumedAt", account.*
    from ${token}
    left join ${tableAs(oidcPayloads, 'session')} on ${session.model} = 'Session' and ${session.uid} = ${token.payload}->>'sessionUid'
      and ${liveRow(session.expiresAt)}
    left join ${tableAs(oidcPayloads, 'grant')} on ${grant.model} = 'Grant' and ${grant.id} = ${token.payload}->>'grantId'
      and ${liveRow(grant.expiresAt)}
    left join lateral ${accountForTokensOf(sql`${token.payload}->>'accountId'`)} account on true
    where ${and(storedKey, live)}`;
const findWithBindings = namedStatement<BoundRow>('oidc_find_with_session_grant_account', withBindings);
/** A payload stored under its key, or stored again over it. */
const upsertOf = builder
  .insert(oidcPayloads)
  .values({
    model: stored.model,
    id: stored.id,
    payload: sql`${stored.payload}::jsonb`,
    grantId: stored.grantId,
    userCode: stored.userCode,
    uid: stored.uid,
    expiresAt: sql`${stored.expiresAt}::timestamptz`,
  })
  .onConflictDoUpdate({
    target: [oidcPayloads.model, oidcPayloads.id],
    set: {
      payload: excluded(oidcPayloads.payload),
      grantId: excluded(oidcPayloads.grantId),
      userCode: excluded(oidcPayloads.userCode),
      uid: excluded(oidcPayloads.uid),
      expiresAt: excluded(oidcPayloads.expiresAt),
    },
  })
  .getSQL();
const upsertStored = namedStatement('oidc_upsert', upsertOf);
/**
 * A session saved by an authorization or its resume, with its use recorded for the member's devices list in the same
 * statement (decision 055): oidc-provider saves the session as the request ends, and the use was recorded right after.
 */
const upsertSessionUsed = namedStatement('oidc_upsert_session_used', sql`with used as (${sessionUsed}) ${upsertOf}`);
/** The rows an authorization held for its session's save (see `holdingRequest`), one array element per row. */
const heldRows = placeholders('heldModels', 'heldIds', 'heldPayloads', 'heldGrantIds', 'heldExpiresAts');
const heldColumns = [
  oidcPayloads.model,
  oidcPayloads.id,
  oidcPayloads.payload,
  oidcPayloads.grantId,
  oidcPayloads.expiresAt,
] as const;
const upsertHeldOf = sql`insert into ${oidcPayloads} (${columnList(heldColumns)})
  select * from unnest(${heldRows.heldModels}::text[], ${heldRows.heldIds}::text[], ${heldRows.heldPayloads}::jsonb[],
    ${heldRows.heldGrantIds}::text[], ${heldRows.heldExpiresAts}::timestamptz[])
  on conflict (${columnList([oidcPayloads.model, oidcPayloads.id])}) do update set ${sql.join(
    heldColumns.slice(2).map((column) => sql`${sql.identifier(column.name)} = ${excluded(column)}`),
    sql`, `,
  )}`;
const upsertHeld = namedStatement('oidc_upsert_held', upsertHeldOf);
/**
 * An authorization's session saved with its use and with the grant and code the authorization held for it (decision
 * 057): oidc-provider saves the grant, then the code, then the session, one statement each, in the same request.
 */
const upsertSessionUsedWithHeld = namedStatement(
  'oidc_upsert_session_used_with_held',
  sql`with used as (${sessionUsed}), held as (${upsertHeldOf}) ${upsertOf}`,
);
const claimUntil = sql`clock_timestamp() + make_interval(secs => ${sql.raw(String(REPLAY_CLAIM_SECONDS))})`;
/** A DPoP proof's id claimed, unless a live claim holds it (see `claim`): the id when this statement claimed it. */
const claimOf = (model: SQL, id: SQL) =>
  builder
    .insert(oidcPayloads)
    .values({ model, id, payload: sql`'{}'::jsonb`, expiresAt: claimUntil })
    // A claim that expired and was not swept yet is no claim: it is taken over.
    .onConflictDoUpdate({
      target: [oidcPayloads.model, oidcPayloads.id],
      set: { expiresAt: claimUntil },
      setWhere: lt(oidcPayloads.expiresAt, sql`clock_timestamp()`),
    })
    .returning({ id: oidcPayloads.id })
    .getSQL();
const claimStored = namedStatement<{ id: string }>('oidc_claim', claimOf(stored.model, stored.id));
/**
 * A token request's DPoP proof claimed, and its code or refresh token read with its bindings, in one statement
 * (decision 050): the token endpoint sends both for every code exchange and refresh. The claim is made whether or not
 * the token is found, and `proofClaimed` says whether this statement made it; the token's columns are null when it
 * was not found.
 */
const claimAndFindWithBindings = namedStatement<{ proofClaimed: boolean } & Nullable<BoundRow>>(
  'oidc_claim_find_with_session_grant_account',
  sql`with claim as (${claimOf(sql`'ReplayDetection'`, stored.proofId)})
    select exists (select from claim) as "proofClaimed", found.*
    from (select) as request left join (${withBindings}) as found on true`,
);
const consumeStored = namedStatement<{ id: string }>(
  'oidc_consume',
  builder
    .update(oidcPayloads)
    .set({ consumedAt: sql`${stored.consumedAt}::timestamptz` })
    .where(and(storedKey, isNull(oidcPayloads.consumedAt)))
    .returning({ id: oidcPayloads.id })
    .getSQL(),
);
const grantOfStored = namedStatement<{ grantId: string | null }>(
  'oidc_grant_of',
  builder
    .select({ grantId: sql`${oidcPayloads.grantId}`.as('grantId') })
    .from(oidcPayloads)
    .where(storedKey)
    .getSQL(),
);
const destroyStored = namedStatement('oidc_destroy', builder.delete(oidcPayloads).where(storedKey).getSQL());
/** The provider session of the resume that reads an interaction: its uid, and the account signed in to it (or null). */
const resumedBy = placeholders('sessionUid', 'sessionAccountId');
/**
 * Whether the resume goes on to delete the interaction it read, as oidc-provider's resume checks it first: the
 * interaction began in this session (or in none), and this session is signed in to no account, or to the one the
 * interaction's result signed in. Otherwise the resume refuses it, or signs the session's account out first and
 * resumes it after, and the interaction must still be there.
 */
const resumeTakes = sql`(${oidcPayloads.payload}->'session'->>'uid' is null
    or ${oidcPayloads.payload}->'session'->>'uid' = ${resumedBy.sessionUid}::text)
  and (${resumedBy.sessionAccountId}::text is null or ${oidcPayloads.payload}->'result'->'login' is null
    or ${oidcPayloads.payload}->'result'->'login'->>'accountId' = ${resumedBy.sessionAccountId}::text)`;
/**
 * The interaction an authorization's resume reads, deleted by the same statement when the resume would delete it
 * next (`resumeTakes`), with the account its result signed in (decision 056): oidc-provider finds it, deletes it a
 * moment later, and then reads that account, one statement each. `toTake` says whether it was to be deleted, and
 * `taken` whether this statement deleted it: one to be deleted that another request deleted first was taken by that
 * request. The account's columns are null when it is gone, or the result names no account.
 */
const takeInteraction = namedStatement<StoredRow & { toTake: boolean; taken: boolean } & Nullable<TokensAccountRow>>(
  'oidc_take_interaction_with_account',
  sql`with found as (
      select ${oidcPayloads.payload} as "payload", ${oidcPayloads.consumedAt} as "consumedAt", ${resumeTakes} as "toTake"
      from ${oidcPayloads} where ${and(storedKey, live)}
    ), taken as (
      delete from ${oidcPayloads} where ${and(storedKey, live)} and exists (select from found where "toTake")
      returning ${oidcPayloads.id}
    )
    select found.*, exists (select from taken) as "taken", account.* from found
    left join lateral ${accountForTokensOf(sql`found."payload"->'result'->'login'->>'accountId'`)} account on true`,
);

/**
 * The models whose rows go with their grant when it ends (`endGrant`, `revokeByGrantId`, and a session ended from the
 * devices list: `sessions.ts`'s `endSession`): what was issued under it, as oidc-provider's own store keeps them. An
 * interaction names the grant of the session it began in, and must outlive it: signing another account in over a
 * signed-in session ends that session's grant, then resumes the interaction.
 */
const GRANTED_MODELS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

/**
 * The models a token request reads with their session, grant and account (see `findWithBindings` and
 * `claimAndFindWithBindings`).
 */
const BOUND_MODELS = new Set(['AuthorizationCode', 'RefreshToken']);

/**
 * The session and grant read with a code or refresh token, per token request, by the look-up each answers
 * (`Session uid …`, `Grant …`; null when there was none). Each answers that look-up once, in that request only: as
 * one statement read them, with the token, instead of two more a moment later.
 */
const readAhead = new WeakMap<object, Map<string, StoredRow | null>>();

/**
 * The account read with a code or refresh token, per token request, or with the interaction an authorization's resume
 * took, by its id (null when there is none).
 */
const accountsAhead = new WeakMap<object, Map<string, TokensAccount | null>>();

/**
 * What this request (a token request, or a resume) read ahead for `lookUp` (null: there was none), taken so it answers
 * once; undefined when nothing was read ahead for it.
 */
function takeAhead<Value>(reads: WeakMap<object, Map<string, Value | null>>, lookUp: string): Value | null | undefined {
  const request = Provider.ctx;
  const ahead = request && reads.get(request);
  if (!ahead?.has(lookUp)) return undefined;
  const value = ahead.get(lookUp) ?? null;
  ahead.delete(lookUp);
  return value;
}

/**
 * Keeps the account a statement read with a code, a refresh token or an interaction (its lateral join's columns, all
 * there or all null) for the request's look-up of `accountId`, the account id the payload names (none: nothing kept).
 */
function keepAccountAhead(request: object, accountId: unknown, columns: Nullable<TokensAccountRow>) {
  if (typeof accountId !== 'string') return;
  const account = columns.accountId === null ? null : tokensAccountOf(columns as TokensAccountRow);
  accountsAhead.set(request, new Map([[accountId, account]]));
}

/**
 * The account of `accountId` as it was read with this token request's code or refresh token, or with this resume's
 * interaction (see `takeAhead`).
 */
export const accountReadAhead = (accountId: string) => takeAhead(accountsAhead, accountId);

/** The token request oidc-provider is handling (through its own AsyncLocalStorage), if that is what it is handling. */
function tokenRequest(): KoaContextWithOIDC | undefined {
  const ctx = Provider.ctx;
  return ctx?.oidc?.route === 'token' ? ctx : undefined;
}

/** The interactions a resume took (deleted as it read them), by stored id: its delete of them has nothing to do. */
const interactionsTaken = new WeakMap<object, Set<string>>();

/** The authorizations (and their resumes) whose session's use was recorded with the session's save. */
const sessionUsesRecorded = new WeakSet<object>();
/** Whether this request's session use was recorded with its save (then the provider's middleware records nothing). */
export const sessionUseRecorded = (ctx: object) => sessionUsesRecorded.has(ctx);

/**
 * The use to record with a session's save: when oidc-provider saves a signed-in session while it answers an
 * authorization or resumes one, as the provider's middleware would record it when the request is over.
 */
function sessionUseToRecord(payload: AdapterPayload) {
  const ctx = Provider.ctx;
  const route = ctx?.oidc?.route;
  if (!ctx || (route !== 'authorization' && route !== 'resume')) return undefined;
  if (typeof payload.accountId !== 'string' || typeof payload.uid !== 'string') return undefined;
  return { ctx, sessionUid: payload.uid, accountId: payload.accountId, ...sessionUseOf(originOf(ctx)) };
}

/** A row as the store upserts it. */
type UpsertRow = {
  model: string;
  id: string;
  payload: string;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  expiresAt: Date | null;
};

/** What oidc-provider's session middleware reads of a session to decide whether to save it (not in its types). */
type SessionState = { new?: boolean; touched?: boolean; destroyed?: boolean };

/** What an authorization saves before its session, held to go with the session's save (see `holdingRequest`). */
const HELD_MODELS = new Set(['Grant', 'AuthorizationCode']);
const heldFor = new WeakMap<object, UpsertRow[]>();

/**
 * The authorization (or its resume) whose grant or code this save is, when it will save its session as it ends: the
 * save is held to go in the session's statement (decision 057). oidc-provider saves the session after the response
 * is ready and before it is sent, whatever happened (`shared/session.js`), unless the session is new and untouched, or
 * destroyed; an authorization that issues a code has signed its session in, so it is neither. Whatever is still held
 * when the request is over goes on its own (`writeHeld`), before the response, as does anything held when the same
 * request reads the store.
 */
function holdingRequest(model: string, row: UpsertRow): object | undefined {
  if (!HELD_MODELS.has(model) || row.userCode !== null || row.uid !== null) return undefined;
  const ctx = Provider.ctx;
  const route = ctx?.oidc?.route;
  if (!ctx || (route !== 'authorization' && route !== 'resume')) return undefined;
  const session = ctx.oidc.session as SessionState | undefined;
  return session && !session.destroyed && (!session.new || session.touched) ? ctx : undefined;
}

/** The held rows as the statements' arrays take them. */
const heldValues = (rows: readonly UpsertRow[]) => ({
  heldModels: rows.map((row) => row.model),
  heldIds: rows.map((row) => row.id),
  heldPayloads: rows.map((row) => row.payload),
  heldGrantIds: rows.map((row) => row.grantId),
  heldExpiresAts: rows.map((row) => row.expiresAt),
});

/** The rows this request held, taken: the caller writes them. */
function takeHeld(ctx: object | undefined): UpsertRow[] {
  if (!ctx) return [];
  const rows = heldFor.get(ctx) ?? [];
  heldFor.delete(ctx);
  return rows;
}

/** Holds `row` for `ctx`'s session's save, in place of a row of the same key held before (one statement upserts each once). */
function hold(ctx: object, row: UpsertRow): void {
  const held = (heldFor.get(ctx) ?? []).filter((other) => other.model !== row.model || other.id !== row.id);
  heldFor.set(ctx, [...held, row]);
}

/**
 * Writes what this request still holds (see `holdingRequest`): the provider's middleware calls it once the request is
 * over, before the response goes, and the store before any other read or write of it in the same request that could
 * meet a held row.
 */
export async function writeHeld(db: Database, ctx: object | undefined): Promise<void> {
  const rows = takeHeld(ctx);
  if (rows.length > 0) await upsertHeld(db, heldValues(rows));
}

/** The row read ahead for this look-up in this token request, as its statement answers rows (see `takeAhead`). */
function readBack(lookUp: string): StoredRow[] | undefined {
  const row = takeAhead(readAhead, lookUp);
  return row === undefined ? undefined : row ? [row] : [];
}

/**
 * Whether this token request's DPoP proof was claimed by the statement that read its code or refresh token, by the
 * claim's stored id (see `claimAndFindWithBindings`): the replay check's look-up of that id answers from it once.
 */
const claimsAhead = new WeakMap<object, Map<string, boolean>>();

/**
 * The stored id of the claim oidc-provider's replay check will look up for this token request's DPoP proof
 * (`ReplayDetection.unique`: the SHA-256 of the client's id and the proof's `jti`), or undefined when the request
 * names no client or carries no proof with a `jti`. The token endpoint has verified the proof's signature before it
 * looks the code or refresh token up. Should the id differ from the one the check asks for, the check claims its own.
 */
function proofClaimId(request: KoaContextWithOIDC): string | undefined {
  const clientId = request.oidc.client?.clientId;
  const proof = request.get('dpop');
  if (!clientId || !proof) return undefined;
  let jti: unknown;
  try {
    jti = decodeJwt(proof).jti;
  } catch {
    return undefined;
  }
  if (typeof jti !== 'string') return undefined;
  return storedId('ReplayDetection', createHash('sha256').update(`${clientId}${jti}`).digest('base64url'));
}

/**
 * The refresh token this token request used, or the code it exchanged for a refresh token, by its stored key and when,
 * until the refresh token it issues is saved with it (under `USED_WITH_REFRESH_TOKEN`, taken once: see `takeAhead`).
 */
const rotations = new WeakMap<object, Map<string, { used: { model: string; id: string }; at: Date }>>();
const USED_WITH_REFRESH_TOKEN = 'RefreshToken';

/**
 * Whether the token endpoint issues a refresh token to `client` with the tokens it issues for a code: the provider's
 * `issueRefreshToken` answers with it, and the store uses a code with that refresh token's save (decision 057).
 */
export const issuesRefreshToken = (client: { grantTypeAllowed: (type: string) => boolean }) =>
  client.grantTypeAllowed('refresh_token');

/**
 * Uses the code a token request noted (see `consume`) whose refresh token it did not save after all: the request
 * failed after the code's checks. The provider's middleware calls it once the request is over. A code someone else
 * used first ends its grant, as at `consume`; a request that would answer with tokens for it is refused instead.
 */
export async function useLeftOverCode(db: Database, ctx: { status: number; body: unknown }): Promise<void> {
  const left = rotations.get(ctx)?.get(USED_WITH_REFRESH_TOKEN);
  if (left?.used.model !== 'AuthorizationCode') return;
  rotations.delete(ctx);
  if ((await consumeStored(db, { ...left.used, consumedAt: left.at })).length > 0) return;
  await endGrantOfStored(db, left.used);
  if (ctx.status < 400) {
    // oidc-provider's answer to a code used already (its error handler is done with this request).
    ctx.status = 400;
    ctx.body = { error: 'invalid_grant', error_description: 'grant request is invalid' };
  }
}

/** The context a session's sealed id is sealed under. */
const SESSION_ID_CONTEXT = 'oidc_payloads:Session:jti';

/**
 * oidc-provider's storage in PostgreSQL, so restarts sign nobody out and processes share state. Credentials are
 * stored as hashes (`storedId`); the one payload that must give its id back without being asked by it (a session,
 * found by its uid when a refresh token is used) keeps it sealed by the key service. A refresh token rotated is its
 * session used (`rotateRefreshToken`), under the `sessions` limits.
 */
export function postgresAdapterFactory(db: Database, secrets: KeyService, sessions: AppConfig['sessions']) {
  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private async found(rows: StoredRow[], id?: string): Promise<AdapterPayload | undefined> {
      const [row] = rows;
      if (!row) return undefined;
      const { sealedJti, ...rest } = row.payload;
      const payload: AdapterPayload = { ...rest };
      if (this.model !== 'Grant') {
        if (id !== undefined) payload.jti = id;
        else if (sealedJti) payload.jti = (await secrets.open(sealedJti, SESSION_ID_CONTEXT)).toString('utf8');
      }
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    /** The payload as stored: no credential in it, a session's id sealed. */
    private async storable(payload: AdapterPayload): Promise<Record<string, unknown>> {
      if (this.model === 'Grant') return payload;
      const { jti, ...rest } = payload;
      if (this.model === 'Session' && typeof jti === 'string') {
        return { ...rest, sealedJti: await secrets.seal(jti, SESSION_ID_CONTEXT) };
      }
      // An interaction begun in a signed-in session names the session's cookie value (its id, a credential), which
      // nothing reads back: it is not stored.
      if (this.model === 'Interaction' && rest.session && typeof rest.session === 'object') {
        return {
          ...rest,
          session: Object.fromEntries(Object.entries(rest.session).filter(([name]) => name !== 'cookie')),
        };
      }
      return rest;
    }

    /** This model's row of a credential or id, as the statements' placeholders name it. */
    private key(id: string) {
      return { model: this.model, id: storedId(this.model, id) };
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      // The look-up claimed the proof's id already, for longer than asked (see `claim`).
      if (this.model === 'ReplayDetection' && expiresIn > 0 && expiresIn <= REPLAY_CLAIM_SECONDS) return;
      const row: UpsertRow = {
        ...this.key(id),
        payload: JSON.stringify(await this.storable(payload)),
        grantId: (GRANTED_MODELS.has(this.model) && payload.grantId) || null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      const holding = holdingRequest(this.model, row);
      if (holding) {
        hold(holding, row);
        return;
      }
      const use = this.model === 'Session' ? sessionUseToRecord(payload) : undefined;
      if (use) {
        const { ctx, ...used } = use;
        const held = takeHeld(ctx);
        // The use is a record, not a gate: should its statement fail, the session is saved alone (with what was held
        // for it), and the provider's middleware tries to record the use again. The error is dropped here: the
        // session's own save, or the middleware's record, fails with it again if it is the store's, and is logged or
        // thrown there.
        const saved = await (
          held.length > 0
            ? upsertSessionUsedWithHeld(db, { ...row, ...used, ...heldValues(held) })
            : upsertSessionUsed(db, { ...row, ...used })
        ).then(
          () => true,
          () => false,
        );
        if (saved) {
          sessionUsesRecorded.add(ctx);
          return;
        }
        if (held.length > 0) await upsertHeld(db, heldValues(held));
        await upsertStored(db, row);
        return;
      }
      await writeHeld(db, Provider.ctx);
      const rotation = this.model === 'RefreshToken' ? takeAhead(rotations, USED_WITH_REFRESH_TOKEN) : undefined;
      if (!rotation) {
        await upsertStored(db, row);
        return;
      }
      const won =
        rotation.used.model === 'AuthorizationCode'
          ? await exchangeCode(db, rotation.used, rotation.at, row)
          : await rotateRefreshToken(db, sessions, rotation.used, rotation.at, row);
      if (!won) await this.lost(rotation.used);
    }

    async find(id: string) {
      await writeHeld(db, Provider.ctx);
      if (this.model === 'ReplayDetection') return this.claim(id);
      if (this.model === 'Grant') return this.found(readBack(`Grant ${id}`) ?? (await findStored(db, this.key(id))));
      if (this.model === 'Interaction') {
        const ctx = Provider.ctx;
        if (ctx?.oidc?.route === 'resume') return this.take(ctx, id);
      }
      const request = BOUND_MODELS.has(this.model) ? tokenRequest() : undefined;
      if (!request) return this.found(await findStored(db, this.key(id)), id);
      const proofId = proofClaimId(request);
      if (proofId === undefined) {
        const [row] = await findWithBindings(db, this.key(id));
        return row && this.foundWithBindings(request, row, id);
      }
      // The statement answers one row, found or not: its claim is made either way.
      const [read] = await claimAndFindWithBindings(db, { ...this.key(id), proofId });
      const { proofClaimed, ...columns } = read!;
      claimsAhead.set(request, new Map([[proofId, proofClaimed]]));
      return columns.payload === null ? undefined : this.foundWithBindings(request, columns as BoundRow, id);
    }

    /**
     * The interaction a resume reads (see `takeInteraction`): deleted with the read when the resume would delete it
     * next, and the account its result signed in read with it, to answer the resume's look-up of that account once.
     */
    private async take(ctx: KoaContextWithOIDC, id: string) {
      const key = this.key(id);
      // oidc-provider has read the request's session before it resumes the interaction.
      const { uid, accountId: signedIn } = ctx.oidc.session ?? {};
      const [row] = await takeInteraction(db, { ...key, sessionUid: uid ?? null, sessionAccountId: signedIn ?? null });
      if (!row) return undefined;
      const { payload, consumedAt, toTake, taken, ...account } = row;
      // Another request resuming it took it first (the same resume sent twice): it is gone for this one.
      if (toTake && !taken) return undefined;
      if (taken) interactionsTaken.set(ctx, (interactionsTaken.get(ctx) ?? new Set<string>()).add(key.id));
      keepAccountAhead(
        ctx,
        (payload as { result?: { login?: { accountId?: unknown } } }).result?.login?.accountId,
        account,
      );
      return this.found([{ payload, consumedAt }], id);
    }

    /** A code or refresh token read with its bindings in a token request, which are kept to answer its look-ups. */
    private async foundWithBindings(request: KoaContextWithOIDC, row: BoundRow, id: string) {
      const { sessionUid, grantId, accountId } = row.payload;
      const ahead = new Map<string, StoredRow | null>();
      if (typeof sessionUid === 'string') {
        const { sessionPayload: payload, sessionConsumedAt: consumedAt } = row;
        ahead.set(`Session uid ${sessionUid}`, payload && { payload, consumedAt });
      }
      if (typeof grantId === 'string') {
        const { grantPayload: payload, grantConsumedAt: consumedAt } = row;
        ahead.set(`Grant ${grantId}`, payload && { payload, consumedAt });
      }
      readAhead.set(request, ahead);
      keepAccountAhead(request, accountId, row);
      return this.found([row], id);
    }

    /**
     * A DPoP proof's id is recorded by the look-up itself, in one statement: oidc-provider's `ReplayDetection.unique`
     * finds, then saves, so two requests racing with one proof both found nothing and both passed. The first to claim
     * the id finds nothing; any other request with the same proof, on any process, finds the claim and is refused.
     */
    private async claim(id: string): Promise<AdapterPayload | undefined> {
      const key = this.key(id);
      const ahead = takeAhead(claimsAhead, key.id);
      const claimed = typeof ahead === 'boolean' ? ahead : (await claimStored(db, key)).length > 0;
      return claimed ? undefined : { jti: id };
    }

    async findByUid(uid: string) {
      await writeHeld(db, Provider.ctx);
      const ahead = this.model === 'Session' ? readBack(`Session uid ${uid}`) : undefined;
      return this.found(ahead ?? (await findStoredByUid(db, { model: this.model, uid })));
    }

    async findByUserCode(userCode: string) {
      await writeHeld(db, Provider.ctx);
      return this.found(await findStoredByUserCode(db, { model: this.model, userCode }));
    }

    /**
     * Marks a code or refresh token used, only if nobody did first: oidc-provider checks `consumed` before it calls
     * this, so two requests racing with one credential both passed that check. The loser is a reuse, treated as
     * oidc-provider treats one that comes later: the grant ends and the request is refused. A refresh token's use is
     * made with its replacement's save, which oidc-provider makes next (decision 050).
     */
    async consume(id: string) {
      await writeHeld(db, Provider.ctx);
      const key = this.key(id);
      const request = BOUND_MODELS.has(this.model) ? tokenRequest() : undefined;
      const client = request?.oidc.client;
      // A refresh token is used with its replacement's save, and a code with the save of the refresh token issued for
      // it (decision 057), which oidc-provider makes next.
      if (request && (this.model === 'RefreshToken' || (client && issuesRefreshToken(client)))) {
        rotations.set(request, new Map([[USED_WITH_REFRESH_TOKEN, { used: key, at: new Date() }]]));
        return;
      }
      // oidc-provider uses a refresh token only at the token endpoint; a code's exchange follows the authorization
      // that has just saved the session, so neither touches it here.
      if ((await consumeStored(db, { ...key, consumedAt: new Date() })).length === 0) await this.lost(key);
    }

    /** A code or refresh token someone else used first: its grant ends and the request is refused (see `consume`). */
    private async lost(key: { model: string; id: string }): Promise<never> {
      await endGrantOfStored(db, key);
      throw new errors.InvalidGrant(`${CREDENTIAL_NAMES[key.model] ?? key.model} already used`);
    }

    async destroy(id: string) {
      if (this.model !== 'Grant') {
        const key = this.key(id);
        const ctx = Provider.ctx;
        // Taken by this resume's read of it (see `take`): deleted already, and once.
        if (this.model === 'Interaction' && ctx && interactionsTaken.get(ctx)?.delete(key.id)) return;
        await destroyStored(db, key);
        return;
      }
      // A grant ends (sign-out, a replayed refresh token, a revoked one): its access tokens stop working at once, on
      // every API process. A held grant or code of it goes first, so that the end meets it. (A session's or an
      // interaction's delete meets no held row: a resume over a signed-in session deletes the session's old id as it
      // saves it, and the held rows go with that save.)
      await writeHeld(db, Provider.ctx);
      await endGrant(db, id);
    }

    async revokeByGrantId(grantId: string) {
      await writeHeld(db, Provider.ctx);
      await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
    }
  };
}

/** Ends the grant a code or refresh token (by its stored key) was issued under, if it names one (a reuse's answer). */
async function endGrantOfStored(db: Database, key: { model: string; id: string }) {
  const [stored] = await grantOfStored(db, key);
  if (stored?.grantId) await endGrant(db, stored.grantId);
}

/** Ends a grant: it, and every code and token issued under it, are deleted, and its access tokens stop working at once. */
async function endGrant(db: Database, grantId: string) {
  await db.transaction(async (tx) => {
    await tx
      .delete(oidcPayloads)
      .where(or(and(eq(oidcPayloads.model, 'Grant'), eq(oidcPayloads.id, grantId)), eq(oidcPayloads.grantId, grantId)));
    await revokeGrant(tx, grantId);
  });
}

/** Deletes what oidc-provider stored that has expired (it ignores such rows, but they would pile up). */
export async function sweepExpiredPayloads(db: Database): Promise<number> {
  const removed = await db
    .delete(oidcPayloads)
    .where(lt(oidcPayloads.expiresAt, new Date()))
    .returning({ id: oidcPayloads.id });
  return removed.length;
}

/**
 * Rows stored by a version that kept credentials in the clear (their payload still holds `jti`): each gets its hashed
 * id, and a session its sealed id. Run at start; two processes doing it at once convert each row once.
 */
export async function sealStoredCredentials(db: Database, secrets: KeyService): Promise<number> {
  const stillClear = sql`${oidcPayloads.payload} ? 'jti'`;
  const rows = await db
    .select({ model: oidcPayloads.model, id: oidcPayloads.id, payload: oidcPayloads.payload })
    .from(oidcPayloads)
    .where(and(sql`${oidcPayloads.model} <> 'Grant'`, stillClear));
  let converted = 0;
  for (const row of rows) {
    const payload: Record<string, unknown> = { ...(row.payload as AdapterPayload) };
    delete payload['jti'];
    if (row.model === 'Session') payload['sealedJti'] = await secrets.seal(row.id, SESSION_ID_CONTEXT);
    const result = await db
      .update(oidcPayloads)
      .set({ id: storedId(row.model, row.id), payload: sql`${JSON.stringify(payload)}::jsonb` })
      .where(and(eq(oidcPayloads.model, row.model), eq(oidcPayloads.id, row.id), stillClear));
    converted += result.rowCount ?? 0;
  }
  return converted;
}
