import { eq, lt, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { excluded, type Database } from '../db/client.js';
import { tokenRevocations } from '../db/schema/index.js';
import { DATABASE_UNAVAILABLE, HttpError } from '../plugins/http-errors.js';

export const REVOCATION_CHANNEL = 'ums_token_revocations';
/** How often the table is read again while LISTEN is connected (a safety net), and while it is not. */
const POLL_CONNECTED_MS = 30_000;
const POLL_DISCONNECTED_MS = 500;

interface Mark {
  /** Epoch seconds: tokens issued before this are void for every grant. */
  all: number | null;
  /** Epoch seconds: tokens issued before this are void for every grant but `exceptGrant`. */
  others: number | null;
  exceptGrant: string | null;
  /** The same two moments in epoch microseconds, as PostgreSQL holds them: what a token's revocation mark names. */
  allMicros: number | null;
  othersMicros: number | null;
}

/**
 * The claim our provider puts in every access token: the account's latest revocation (epoch microseconds, 0 for
 * none) when the token was issued. A token carrying the mark of a revocation was issued after it, whatever second
 * both fell in; whole-second `iat` could not tell (decision 022).
 */
export const REVOCATION_MARK_CLAIM = 'revocation_mark';

/** What the API knows of an access token when it checks it. */
export interface TokenFacts {
  subject: string;
  grantId: string | null;
  /** Epoch seconds. */
  issuedAt: number;
  /** The token's revocation mark (our provider's tokens), or null (another issuer's, or older tokens). */
  revocationMark: number | null;
}

type Executor = Pick<Database, 'execute' | 'select' | 'insert'>;

// JWT iat has one-second precision: a token without a revocation mark issued in the same second as the event is
// treated as issued before it.
const toSeconds = (micros: number | null) => (micros === null ? null : Math.ceil(micros / 1_000_000));

/** A moment in epoch microseconds (as text), PostgreSQL's own precision: what a revocation mark names. */
const micros = (moment: SQL | AnyColumn) => sql<string | null>`(extract(epoch from ${moment}) * 1000000)::bigint::text`;

/** A revocation row as the cache reads it. */
const MARK_FIELDS = {
  key: tokenRevocations.key,
  allMicros: micros(tokenRevocations.notBefore),
  othersMicros: micros(tokenRevocations.othersNotBefore),
  exceptGrant: tokenRevocations.exceptGrant,
};

interface MarkRow {
  allMicros: string | null;
  othersMicros: string | null;
  exceptGrant: string | null;
}

function markOf(row: MarkRow): Mark {
  const allMicros = row.allMicros === null ? null : Number(row.allMicros);
  const othersMicros = row.othersMicros === null ? null : Number(row.othersMicros);
  return {
    all: toSeconds(allMicros),
    others: toSeconds(othersMicros),
    exceptGrant: row.exceptGrant,
    allMicros,
    othersMicros,
  };
}

const now = sql`clock_timestamp()`;

/**
 * The account's latest revocation in epoch microseconds (0 when it has none), read when a token is issued: the
 * token carries it as its revocation mark. Read beside the account itself, from `token_revocations` left-joined on
 * `revocationRowOf` (see `accountForTokensOf`, which AccountService.findForTokens and the token endpoint's own read
 * use).
 */
export const revocationMark = sql<string>`coalesce(${micros(
  sql`greatest(${tokenRevocations.notBefore}, ${tokenRevocations.othersNotBefore})`,
)}, '0')`;

/** The join condition of an account's revocation row, for `revocationMark`. */
export const revocationRowOf = (accountId: AnyColumn) => sql`${tokenRevocations.key} = 'account:' || ${accountId}`;

/**
 * Writes revocations. Each goes in the caller's transaction when one is given, and is announced to every API process
 * with NOTIFY, which PostgreSQL delivers only when that transaction commits.
 */
export async function revokeAccount(db: Executor, accountId: string, options: { exceptGrant?: string | null } = {}) {
  const key = `account:${accountId}`;
  // A revocation's moment is later than every earlier one of the account (even if the clock stepped back), so the
  // tokens issued under an earlier one always carry a smaller mark.
  const after = sql`greatest(${excluded(tokenRevocations.updatedAt)}, greatest(${tokenRevocations.notBefore},
    ${tokenRevocations.othersNotBefore}) + interval '1 microsecond')`;
  if (options.exceptGrant) {
    await db
      .insert(tokenRevocations)
      .values({ key, othersNotBefore: now, exceptGrant: options.exceptGrant, updatedAt: now })
      .onConflictDoUpdate({
        target: tokenRevocations.key,
        set: {
          othersNotBefore: after,
          exceptGrant: excluded(tokenRevocations.exceptGrant),
          updatedAt: excluded(tokenRevocations.updatedAt),
        },
      });
  } else {
    await db
      .insert(tokenRevocations)
      .values({ key, notBefore: now, updatedAt: now })
      .onConflictDoUpdate({
        target: tokenRevocations.key,
        set: { notBefore: after, updatedAt: excluded(tokenRevocations.updatedAt) },
      });
  }
  await notify(db, key);
}

export async function revokeGrant(db: Executor, grantId: string) {
  const key = `grant:${grantId}`;
  await db
    .insert(tokenRevocations)
    .values({ key, notBefore: now, updatedAt: now })
    .onConflictDoUpdate({
      target: tokenRevocations.key,
      set: { notBefore: excluded(tokenRevocations.notBefore), updatedAt: excluded(tokenRevocations.updatedAt) },
    });
  await notify(db, key);
}

const notify = (db: Executor, key: string) => db.execute(sql`select pg_notify(${REVOCATION_CHANNEL}, ${key})`);

/** Rows that no longer void any live token: every access token issued before them has expired. */
export async function sweepRevocations(db: Database, accessTokenTtlSeconds: number): Promise<number> {
  const removed = await db
    .delete(tokenRevocations)
    .where(lt(tokenRevocations.updatedAt, new Date(Date.now() - (accessTokenTtlSeconds + 60) * 1000)))
    .returning({ key: tokenRevocations.key });
  return removed.length;
}

/**
 * Every revocation in memory, so that checking a token costs no database round trip. A dedicated connection LISTENs
 * for changes (each notification names the row to read again); the table is read whole at start, after every
 * reconnection, and on a timer: every 30 s while listening, every 0.5 s while the listening connection is down.
 */
export function createRevocationCache({
  db,
  log = () => undefined,
  onLearnt = () => undefined,
}: {
  db: Database;
  log?: (message: string) => void;
  /** Told of each revocation mark another process (or this one) wrote: its scope, account or grant. */
  onLearnt?: (scope: string) => void;
}) {
  const marks = new Map<string, Mark>();
  /** False until the table has been read once: no token is let through on unknown revocation state. */
  let loaded = false;
  let listener: pg.Client | null = null;
  let stopped = false;
  let pollTimer: NodeJS.Timeout | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;

  async function loadAll() {
    const rows = await db.select(MARK_FIELDS).from(tokenRevocations);
    marks.clear();
    for (const row of rows) marks.set(row.key, markOf(row));
    loaded = true;
  }

  async function loadOne(key: string) {
    const rows = await db.select(MARK_FIELDS).from(tokenRevocations).where(eq(tokenRevocations.key, key));
    const row = rows[0];
    if (!row) marks.delete(key);
    else marks.set(key, markOf(row));
  }

  function schedulePoll() {
    if (stopped) return;
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = setTimeout(
      () => {
        loadAll()
          .catch(() => undefined)
          .finally(schedulePoll);
      },
      listener ? POLL_CONNECTED_MS : POLL_DISCONNECTED_MS,
    );
    pollTimer.unref();
  }

  /** Polls quickly meanwhile, and tries to listen again every second until it can. */
  function reconnectSoon() {
    if (stopped) return;
    schedulePoll();
    if (reconnectTimer) clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(() => void listen().catch(reconnectSoon), 1000);
    reconnectTimer.unref();
  }

  async function listen() {
    const client = new pg.Client(db.$client.options);
    client.on('error', () => undefined);
    client.on('end', () => {
      if (listener === client) listener = null;
      if (stopped) return;
      log('revocation listener disconnected: reading the table every 0.5 s until it is back');
      reconnectSoon();
    });
    client.on('notification', (message) => {
      if (message.channel === REVOCATION_CHANNEL && message.payload) {
        onLearnt(message.payload.split(':')[0] ?? 'unknown');
        void loadOne(message.payload).catch(() => void loadAll().catch(() => undefined));
      }
    });
    try {
      await client.connect();
      await client.query(`listen ${REVOCATION_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    listener = client;
    // Whatever changed while nobody listened.
    await loadAll();
    schedulePoll();
  }

  /** Time-based: tokens issued (in whole seconds) before the mark's moment. */
  function revoked(key: string, grantId: string | null, issuedAt: number): boolean {
    const mark = marks.get(key);
    if (!mark) return false;
    if (mark.all !== null && issuedAt < mark.all) return true;
    return mark.others !== null && issuedAt < mark.others && grantId !== mark.exceptGrant;
  }

  /** By the token's revocation mark: tokens issued under an older state of the account's revocations. */
  function revokedByMark(key: string, grantId: string | null, tokenMark: number): boolean {
    const mark = marks.get(key);
    if (!mark) return false;
    if (mark.allMicros !== null && tokenMark < mark.allMicros) return true;
    return mark.othersMicros !== null && tokenMark < mark.othersMicros && grantId !== mark.exceptGrant;
  }

  return {
    /** Reads the table and starts listening; with the database unreachable it keeps trying in the background. */
    async start() {
      await listen().catch(() => {
        log('revocation listener could not connect: reading the table every 0.5 s until it can');
        reconnectSoon();
      });
    },

    async stop() {
      stopped = true;
      if (pollTimer) clearTimeout(pollTimer);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
    },

    /**
     * Whether a token with these facts was issued before a revocation that covers it. Throws a 503 while the
     * revocations have never been read (the database was unreachable since the start): nobody is let in unchecked.
     */
    isRevoked(token: TokenFacts): boolean {
      if (!loaded) throw new HttpError(503, DATABASE_UNAVAILABLE);
      const account = `account:${token.subject}`;
      return (
        (token.revocationMark === null
          ? revoked(account, token.grantId, token.issuedAt)
          : revokedByMark(account, token.grantId, token.revocationMark)) ||
        (token.grantId !== null && revoked(`grant:${token.grantId}`, token.grantId, token.issuedAt))
      );
    },

    /** Whether changes are being heard as they happen (false: polling every 0.5 s). */
    get listening() {
      return listener !== null;
    },
  };
}
export type RevocationCache = ReturnType<typeof createRevocationCache>;
