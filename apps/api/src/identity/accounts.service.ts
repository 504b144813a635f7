import { passwordProblemText } from '@ums/contracts';
import { ROLE_TEXTS } from '@ums/contracts/roles';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { hasRows, namedStatement, rowColumns, type Database, type Nullable } from '../db/client.js';
import { accountDeletions, accounts, tokenRevocations } from '../db/schema/index.js';
import { badRequest, conflict, notFound } from '../plugins/http-errors.js';
import { ACCOUNT_ID_PATTERN, isAccountId } from './account-id.js';
import { hashPassword, needsRehash, verifyPassword } from './password-hash.js';
import { revocationMark, revocationRowOf } from './revocations.js';
import { voidResetLinks } from './password-reset.js';
import { secondFactorOf } from './factors.js';
import {
  signInGuessOf,
  signInGuessReserved,
  signInGuessValues,
  type SignInGuess,
  type SignInGuessRow,
  type SignInLimits,
} from './attempt-limiter.js';
import { endAccountSessions } from './sessions.js';

export const ADMIN_GROUP = 'Admin';

/**
 * Group changes take turns (the console's, a revert's, the CLI's, an account's removal), each taking this lock before
 * it reads an account: none works from a stale read, and two removals cannot each leave the other the last Admin.
 */
export async function lockGroupChanges(tx: Pick<Database, 'execute'>): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('ums:account-groups'))`);
}

/**
 * Whether any account is still in the Admin group (`adminGroup`) and staying: an administrator who closed their
 * account (its deletion waits for the grace period) does not count, for the account will go.
 */
export async function anyAdmin(tx: Pick<Database, 'execute'>, adminGroup: string): Promise<boolean> {
  const { rows } = await tx.execute<{ any: boolean }>(
    sql`select exists(
          select 1 from ${accounts}
          where ${adminGroup} = any(${accounts.groups})
            and not exists (select 1 from ${accountDeletions} where ${accountDeletions.subject} = ${accounts.accountId}::text)
        ) as any`,
  );
  return rows[0]!.any;
}

export interface Account {
  accountId: string;
  email: string;
  groups: string[];
  role: string;
  firstName: string | null;
  lastName: string | null;
  emailVerified: boolean;
  createdAt: Date;
}

const emailSchema = z.email('must be a valid email address').max(254);

function checkEmail(email: string): string {
  const parsed = emailSchema.safeParse(email.trim());
  if (!parsed.success) throw badRequest(`Email "${email}" ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  return parsed.data;
}

function checkPassword(password: string) {
  const problems = passwordProblemText(password);
  if (problems) throw badRequest(problems);
}

/** An email as the unique index on `lower(email)` compares it. */
const normalEmail = (email: string) => email.trim().toLowerCase();

/**
 * The reads of every sign-in and token request, as named prepared statements (decision 041): an account by its
 * email, and by its id with its revocation mark.
 */
type AccountRow = typeof accounts.$inferSelect;
const accountByEmail = namedStatement<AccountRow>(
  'account_by_email',
  sql`select ${rowColumns(accounts)} from ${accounts} where lower(${accounts.email}) = ${sql.placeholder('email')}`,
);
type AccountForSignInRow = AccountRow & { secondFactor: boolean; deleteAfter: Date | null };
/** An account read for a password sign-in ahead of its check (`reserveSignInWithAccount`): none when there is none. */
export type SignInRead = { found: AccountForSignInRow | undefined };
/**
 * A password sign-in's read (decision 055): the account by its email with what the sign-in asks next, whether it has
 * a second factor and when it is to be deleted if its member closed it, in one statement instead of three.
 */
const accountForSignInOf = sql`select ${rowColumns(accounts)}, ${secondFactorOf(accounts.accountId)} as "secondFactor",
        (select ${accountDeletions.deleteAfter} from ${accountDeletions}
          where ${accountDeletions.subject} = ${accounts.accountId}::text) as "deleteAfter"
      from ${accounts} where lower(${accounts.email}) = ${sql.placeholder('email')}`;
const accountForSignIn = namedStatement<AccountForSignInRow>('account_for_sign_in', accountForSignInOf);
/**
 * A password sign-in's guess reserved under its limits (`sign_in_reserve`), and its account read as above, in one
 * statement (decision 057): the guess is counted whatever the read finds, and the account's columns are null when
 * there is none.
 */
const guessReservedWithAccount = namedStatement<SignInGuessRow & Nullable<AccountForSignInRow>>(
  'sign_in_reserve_with_account',
  // The guess's columns by name, after the account's: an account column of the same name cannot take their place.
  sql`with guess as materialized (${signInGuessReserved})
    select account.*, guess.refused, guess.ids, guess.familiar, guess.recent
    from guess left join (${accountForSignInOf}) as account on true`,
);
/** The columns of an account a token's claims need: never its password hash. */
const TOKENS_KEYS = [
  'accountId',
  'email',
  'groups',
  'role',
  'firstName',
  'lastName',
  'phoneNumber',
  'emailVerified',
  'createdAt',
] as const;
/** The account with its revocation mark, as a token's claims need them. */
export type TokensAccountRow = Pick<AccountRow, (typeof TOKENS_KEYS)[number]> & { mark: string };
/**
 * The account of `accountId` (an expression of text; null, or not an account id, finds none) with its revocation
 * mark, as a subquery a token's statement joins laterally: its columns named as `tokensAccountOf` reads them.
 */
export const accountForTokensOf = (accountId: SQL) =>
  sql`(select ${sql.join(
    TOKENS_KEYS.map((key) => sql`${accounts[key]} as ${sql.identifier(key)}`),
    sql`, `,
  )}, ${revocationMark} as mark
    from ${accounts} left join ${tokenRevocations} on ${revocationRowOf(accounts.accountId)}
    where ${isAccountId(accounts.accountId, accountId)})`;
const accountForTokens = namedStatement<TokensAccountRow>(
  'account_for_tokens',
  sql`select * from ${accountForTokensOf(sql`${sql.placeholder('accountId')}::text`)} account`,
);

/** The account a token is issued for, from a row of `accountForTokensOf`. */
export const tokensAccountOf = (row: TokensAccountRow) => ({
  ...toAccount(row),
  phoneNumber: row.phoneNumber,
  revocationMark: Number(row.mark),
});
export type TokensAccount = ReturnType<typeof tokensAccountOf>;

const toAccount = (row: Omit<AccountRow, 'passwordHash' | 'updatedAt'>): Account => ({
  accountId: row.accountId,
  email: row.email,
  groups: row.groups,
  role: row.role,
  firstName: row.firstName,
  lastName: row.lastName,
  emailVerified: row.emailVerified,
  createdAt: row.createdAt,
});

/** The embedded provider's account store: emails are unique whatever their case. */
export function createAccountService({ db, adminGroup = ADMIN_GROUP }: { db: Database; adminGroup?: string }) {
  /**
   * The row when `password` is its password, its hash renewed when it is weaker than today's; else null. The password
   * is hashed even when there is no row, so that the answer takes as long either way.
   */
  async function passwordChecked<Row extends AccountRow>(row: Row | null | undefined, password: string) {
    const ok = await verifyPassword(password, row?.passwordHash ?? (await unknownAccountHash));
    if (!row || !ok) return null;
    if (needsRehash(row.passwordHash)) {
      await db
        .update(accounts)
        .set({ passwordHash: await hashPassword(password) })
        .where(and(eq(accounts.accountId, row.accountId), eq(accounts.passwordHash, row.passwordHash)));
    }
    return row;
  }
  async function find(email: string) {
    const [row] = await accountByEmail(db, { email: normalEmail(email) });
    return row ?? null;
  }
  async function mustFind(email: string) {
    const row = await find(email);
    if (!row) throw notFound(`Account ${email}`);
    return row;
  }
  return {
    async add(input: {
      email: string;
      password: string;
      admin?: boolean;
      firstName?: string | null;
      lastName?: string | null;
      accountId?: string;
      /** False for an address nobody has shown to be the member's (an import): the directory says so. */
      emailVerified?: boolean;
    }): Promise<Account> {
      const email = checkEmail(input.email);
      checkPassword(input.password);
      if (await find(email)) throw conflict(`An account for ${email} already exists`);
      const [row] = await db
        .insert(accounts)
        .values({
          ...(input.accountId ? { accountId: input.accountId } : {}),
          email,
          passwordHash: await hashPassword(input.password),
          groups: input.admin ? [adminGroup] : [],
          role: input.admin ? 'admin' : 'user',
          firstName: input.firstName ?? null,
          lastName: input.lastName ?? null,
          emailVerified: input.emailVerified ?? true,
        })
        .returning();
      return toAccount(row!);
    },

    /** An operator's password reset: every session of the account ends with it. */
    async setPassword(email: string, password: string): Promise<void> {
      checkPassword(password);
      const row = await mustFind(email);
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        await tx
          .update(accounts)
          .set({ passwordHash, updatedAt: new Date() })
          .where(eq(accounts.accountId, row.accountId));
        await endAccountSessions(tx, row.accountId);
        await voidResetLinks(tx, row.accountId);
      });
    },

    /** Signs the account out everywhere: sessions, grants and refresh tokens end, access tokens stop working. */
    async endSessions(email: string): Promise<void> {
      const row = await mustFind(email);
      await db.transaction((tx) => endAccountSessions(tx, row.accountId));
    },

    async list(): Promise<Account[]> {
      return (await db.select().from(accounts).orderBy(asc(accounts.email))).map(toAccount);
    },

    /** Removes the account, never the last one in the Admin group. */
    async remove(email: string): Promise<void> {
      const row = await mustFind(email);
      await db.transaction(async (tx) => {
        await lockGroupChanges(tx);
        await tx.delete(accounts).where(eq(accounts.accountId, row.accountId));
        if (row.groups.includes(adminGroup) && !(await anyAdmin(tx, adminGroup))) throw conflict(ROLE_TEXTS.lastAdmin);
        await endAccountSessions(tx, row.accountId);
      });
    },

    /**
     * The account when email and password match; null otherwise, without saying which part was wrong. A hash made
     * with older parameters is replaced by one with the current ones while the password is at hand.
     */
    async verifyCredentials(email: string, password: string): Promise<Account | null> {
      const row = await passwordChecked(await find(email), password);
      return row ? toAccount(row) : null;
    },

    /**
     * A password sign-in's guess reserved under `limits` (as the limiter's `reserveSignIn` does), with the account of
     * `email` read for `signInWithPassword`, in one statement (decision 057). A refused guess reads it too.
     */
    async reserveSignInWithAccount(
      email: string,
      limits: SignInLimits,
      recentMs: number,
    ): Promise<{ guess: SignInGuess; read: SignInRead }> {
      const rows = await guessReservedWithAccount(db, {
        ...signInGuessValues(limits, recentMs),
        email: normalEmail(email),
      });
      const [row] = rows;
      // An account's id is never null: a null one is the left join's row for an email with no account.
      const found = row && row.accountId !== null ? (row as AccountForSignInRow) : undefined;
      return { guess: signInGuessOf(rows, limits), read: { found } };
    },

    /**
     * A password sign-in: the account when `password` is its password, with whether it has a second factor and when
     * it is to be deleted if its member closed it (null when not), read with it in one statement, or given as `read`
     * (`reserveSignInWithAccount`); else null.
     */
    async signInWithPassword(
      email: string,
      password: string,
      read?: SignInRead,
    ): Promise<{ account: Account; secondFactor: boolean; deleteAfter: Date | null } | null> {
      const found = read ? read.found : (await accountForSignIn(db, { email: normalEmail(email) }))[0];
      const row = await passwordChecked(found, password);
      return row ? { account: toAccount(row), secondFactor: row.secondFactor, deleteAfter: row.deleteAfter } : null;
    },

    async findByEmail(email: string): Promise<Account | null> {
      const row = await find(email);
      return row ? toAccount(row) : null;
    },

    async findById(accountId: string) {
      if (!/^[0-9a-f-]{36}$/i.test(accountId)) return null;
      const [row] = await db.select().from(accounts).where(eq(accounts.accountId, accountId));
      return row ? { ...toAccount(row), phoneNumber: row.phoneNumber } : null;
    },

    /**
     * The account as `findById` gives it, with its revocation mark (see REVOCATION_MARK_CLAIM) read in the same
     * statement: what the provider needs to issue its tokens.
     */
    async findForTokens(accountId: string): Promise<TokensAccount | null> {
      if (!ACCOUNT_ID_PATTERN.test(accountId)) return null;
      const [row] = await accountForTokens(db, { accountId });
      return row ? tokensAccountOf(row) : null;
    },

    /** The account, when `password` is its current password (a member confirming a sensitive change); else null. */
    async confirmPassword(accountId: string, password: string): Promise<Account | null> {
      if (!/^[0-9a-f-]{36}$/i.test(accountId)) return null;
      const [row] = await db.select().from(accounts).where(eq(accounts.accountId, accountId));
      return row && (await verifyPassword(password, row.passwordHash)) ? toAccount(row) : null;
    },

    async passwordHashOf(accountId: string): Promise<string | null> {
      const [row] = await db
        .select({ hash: accounts.passwordHash })
        .from(accounts)
        .where(eq(accounts.accountId, accountId));
      return row?.hash ?? null;
    },

    async storeHash(accountId: string, passwordHash: string, tx: Pick<Database, 'update'> = db): Promise<void> {
      await tx.update(accounts).set({ passwordHash, updatedAt: new Date() }).where(eq(accounts.accountId, accountId));
    },

    /** Whether the store holds any account (the first start makes the demo accounts only in an empty one). */
    async hasAny(): Promise<boolean> {
      return hasRows(db, accounts);
    },
  };
}

const unknownAccountHash = hashPassword('not-a-real-account-Password1!');

export type AccountService = ReturnType<typeof createAccountService>;
