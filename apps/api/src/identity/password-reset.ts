import { PASSWORD_MISMATCH_MESSAGE, passwordProblemText } from '@ums/contracts/password-policy';
import { PASSWORD_RESET_MINUTES, PASSWORD_RESET_TEXTS as R } from '@ums/contracts/security';
import { EMAIL_MAX_LENGTH, EMAIL_SHAPE } from '@ums/contracts/self-service/email-change';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/env.js';
import type { Database } from '../db/client.js';
// `accounts` is the account service here.
import { accounts as accountsTable, passwordResets } from '../db/schema/index.js';
import { passwordResetMail, type AlertContext } from '../mail/alerts.js';
import { enqueueMail } from '../mail/outbox.js';
import type { AccountService } from './accounts.service.js';
import { cookieValue } from './cookies.js';
import { acceptForms, LINK_TOKEN, linkPage, linkTokenHash, newLinkToken, PAGE_ROUTE } from './link-tokens.js';
import { attemptKey, type AttemptLimiter } from './attempt-limiter.js';
import { hashPassword } from './password-hash.js';
import { forgotPasswordPage, resetInvalidPage, resetPasswordPage, resetSentPage } from './pages.js';
import { alertOrigin, originOf, type RequestOrigin } from './security-events.js';
import type { SecurityService } from './security.service.js';
import { endAccountSessions } from './sessions.js';
import type { KeyService } from '../secrets/key-service.js';
import { isAccountId } from './account-id.js';

type Executor = Pick<Database, 'update' | 'delete'>;

const MINUTE = 60 * 1000;
/** The forgotten-password limits, documented in the README's security section. */
export const RESET_LIMITS = {
  /** Requests from one address (IPv6 per /64), whatever the email: beyond it the page says to wait. */
  address: { max: 10, windowMs: 15 * MINUTE },
  /** Links mailed to one account: further requests get the same answer and send nothing. */
  account: { max: 3, windowMs: 60 * MINUTE },
} as const;
/** After a new password is set, the browser that set it is signed in at the provider's next prompt within this. */
const SIGN_IN_TICKET_MINUTES = 10;
/** The browser cookie that carries the sign-in ticket, sent only to the provider's interaction pages. */
export const RESET_SIGN_IN_COOKIE = 'ums_reset_signin';

const INTERACTION_UID = /^[A-Za-z0-9_-]{1,64}$/;

const now = sql`clock_timestamp()`;

/** The links of an account. */
const resetOf = (accountId: string) => isAccountId(passwordResets.accountId, accountId);
/** A link that has not been used and has not expired: the one kind that opens an account. */
const usableLink = (token: string) =>
  and(
    eq(passwordResets.tokenHash, linkTokenHash(token)),
    isNull(passwordResets.usedAt),
    gt(passwordResets.expiresAt, now),
  );

/** The embedded provider's "Forgot your password?" page. */
export const forgotPasswordUrl = (issuer: string) => `${issuer}/password/forgot`;

/**
 * Whom a mail to `to` comes from and where it sends the member: the company, the app, and the embedded provider's
 * "Forgot your password?" page (none with another provider, which keeps the passwords).
 */
export const mailContext = (config: Pick<AppConfig, 'auth' | 'publicUrl' | 'web'>, to: string): AlertContext => ({
  company: config.web.company.name,
  publicUrl: config.publicUrl,
  forgotUrl: config.auth.embedded ? forgotPasswordUrl(config.auth.issuer) : null,
  to,
});

/** Outstanding links of the account stop working: its password just changed some other way, or one was used. */
export async function voidResetLinks(db: Executor, accountId: string): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(resetOf(accountId), isNull(passwordResets.usedAt)));
}

/** A new link for the account, valid 30 minutes and once: its token (only its hash is stored). */
export async function newResetToken(db: Pick<Database, 'insert'>, accountId: string): Promise<string> {
  const token = newLinkToken();
  await db.insert(passwordResets).values({
    accountId,
    tokenHash: linkTokenHash(token),
    expiresAt: sql`clock_timestamp() + make_interval(mins => ${PASSWORD_RESET_MINUTES})`,
  });
  return token;
}

/** The page a reset token opens. */
export const resetLinkUrl = (issuer: string, token: string) => `${issuer}/password/reset?token=${token}`;

/** Links and sign-in tickets long past use go (the sweep's timer). */
export async function sweepPasswordResets(db: Executor): Promise<void> {
  await db.delete(passwordResets).where(lt(passwordResets.expiresAt, sql`clock_timestamp() - interval '1 day'`));
}

/** The sign-in ticket the browser carries, if it sent a well-formed one. */
export const signInTicketFrom = (cookieHeader: string | undefined) =>
  cookieValue(cookieHeader, RESET_SIGN_IN_COOKIE, LINK_TOKEN);

/**
 * Forgotten passwords on the embedded provider. A request always gets the same answer at once: whether the address
 * has an account, and the mail, are dealt with after the answer has gone. The link's token is stored only as a hash,
 * works once and for 30 minutes; setting a new password through it ends every session of the account, voids its
 * other links, records the change and mails the alert, and leaves a ticket that signs this browser in.
 */
export function createPasswordResets({
  db,
  config,
  accounts,
  limiter,
  security,
  secrets,
}: {
  db: Database;
  config: Pick<AppConfig, 'auth' | 'publicUrl' | 'web'>;
  accounts: AccountService;
  limiter: AttemptLimiter;
  security: SecurityService;
  /** Seals the mail with the link until it is sent. */
  secrets: KeyService;
}) {
  const pending = new Set<Promise<void>>();

  async function mailLink(email: string, origin: RequestOrigin): Promise<'sent' | 'no-account' | 'limited'> {
    const account = await accounts.findByEmail(email);
    if (!account) return 'no-account';
    const reservation = await limiter.reserve([
      { key: attemptKey('reset-account', account.accountId), ...RESET_LIMITS.account },
    ]);
    if (!reservation.reserved) return 'limited';
    await db.transaction(async (tx) => {
      const link = resetLinkUrl(config.auth.issuer, await newResetToken(tx, account.accountId));
      const mail = passwordResetMail(mailContext(config, account.email), alertOrigin(origin), link);
      await enqueueMail(tx, mail, secrets);
    });
    security.kickMail();
    return 'sent';
  }

  /** The account a link's token opens, while it is unused and fresh. */
  async function accountOf(token: string): Promise<{ accountId: string; email: string } | null> {
    if (!LINK_TOKEN.test(token)) return null;
    const [row] = await db
      .select({ accountId: passwordResets.accountId, email: accountsTable.email })
      .from(passwordResets)
      .innerJoin(accountsTable, eq(accountsTable.accountId, passwordResets.accountId))
      .where(usableLink(token));
    return row ?? null;
  }

  return {
    /**
     * Asks for a link: answered at once, the same for every address; the lookup and the mail follow. Returns false
     * when this address has asked too often (the caller says to wait).
     */
    async request(
      email: string,
      origin: RequestOrigin,
      address: string,
      log: { warn: (o: object, m: string) => void },
    ): Promise<boolean> {
      const reservation = await limiter.reserve([
        { key: attemptKey('reset-address', address), ...RESET_LIMITS.address },
      ]);
      if (!reservation.reserved) return false;
      const work = mailLink(email, origin)
        .then((outcome) => {
          if (outcome === 'limited') log.warn({ outcome }, 'password reset link not sent: too many for this account');
        })
        .catch((error: unknown) => log.warn({ err: error }, 'password reset link not sent'))
        .finally(() => pending.delete(work));
      pending.add(work);
      return true;
    },

    /** Every request answered so far has been dealt with (for an orderly shutdown, and tests). */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },

    accountOf,

    /**
     * Sets the new password through the link: null when the link no longer works (used, expired, or used by a
     * concurrent request a moment ago); otherwise the ticket that signs this browser in.
     */
    async reset(token: string, password: string, origin: RequestOrigin): Promise<string | null> {
      const account = await accountOf(token);
      if (!account) return null;
      const passwordHash = await hashPassword(password);
      const ticket = newLinkToken();
      const done = await db.transaction(async (tx) => {
        const used = await tx
          .update(passwordResets)
          .set({ usedAt: now, signInHash: linkTokenHash(ticket) })
          .where(usableLink(token))
          .returning({ accountId: passwordResets.accountId });
        if (used.length === 0) return false;
        await voidResetLinks(tx, account.accountId);
        await tx
          .update(accountsTable)
          .set({ passwordHash, updatedAt: now })
          .where(eq(accountsTable.accountId, account.accountId));
        await endAccountSessions(tx, account.accountId);
        await security.passwordChanged(tx, account.accountId, origin, account.email);
        return true;
      });
      if (!done) return null;
      security.kickMail();
      return ticket;
    },

    /**
     * The account a sign-in ticket signs in, once, within minutes of the new password. Its tokens carry the mark of
     * the revocation the new password made, so they work at once (the old ones stay void).
     */
    async redeemSignIn(ticket: string): Promise<string | null> {
      const [row] = await db
        .update(passwordResets)
        .set({ signInHash: null })
        .where(
          and(
            eq(passwordResets.signInHash, linkTokenHash(ticket)),
            gt(passwordResets.usedAt, sql`clock_timestamp() - make_interval(mins => ${SIGN_IN_TICKET_MINUTES})`),
          ),
        )
        .returning({ accountId: passwordResets.accountId });
      return row?.accountId ?? null;
    },
  };
}
export type PasswordResets = ReturnType<typeof createPasswordResets>;

/**
 * The provider's forgotten-password pages: asking for a link (`/password/forgot`), and setting a new password through
 * it (`/password/reset?token=...`). No script but the rules' checklist; every answer is `no-store`, and the link's
 * page sends no Referer (its address carries the token).
 */
export async function registerPasswordReset(
  app: FastifyInstance,
  {
    resets,
    mount,
    publicUrl,
    secureCookies,
    addressBucket,
  }: {
    resets: PasswordResets;
    mount: string;
    publicUrl: string;
    secureCookies: boolean;
    addressBucket: (ip: string) => string;
  },
) {
  const forgotPath = `${mount}/password/forgot`;
  const resetPath = `${mount}/password/reset`;
  /** Back to the sign-in the member came from, if it was named, else the app (which starts a new one). */
  const signInUrl = (interaction: unknown) =>
    typeof interaction === 'string' && INTERACTION_UID.test(interaction)
      ? `${mount}/interaction/${interaction}`
      : `${publicUrl}/`;
  const forgotAction = (interaction: unknown) =>
    typeof interaction === 'string' && INTERACTION_UID.test(interaction)
      ? `${forgotPath}?interaction=${interaction}`
      : forgotPath;
  const ticketCookie = (ticket: string) =>
    `${RESET_SIGN_IN_COOKIE}=${ticket}; Path=${mount}/interaction/; Max-Age=${SIGN_IN_TICKET_MINUTES * 60}; HttpOnly; SameSite=Lax${secureCookies ? '; Secure' : ''}`;

  await app.register(async (scope) => {
    acceptForms(scope);

    scope.get(forgotPath, PAGE_ROUTE, async (request, reply) => {
      const { interaction } = request.query as Record<string, unknown>;
      return linkPage(reply, 200, forgotPasswordPage(forgotAction(interaction), signInUrl(interaction)));
    });

    scope.post(forgotPath, PAGE_ROUTE, async (request, reply) => {
      const { interaction } = request.query as Record<string, unknown>;
      const body = (request.body ?? {}) as Record<string, string | undefined>;
      const typed = String(body['email'] ?? '').trim();
      const again = (status: number, error: string) =>
        linkPage(
          reply,
          status,
          forgotPasswordPage(forgotAction(interaction), signInUrl(interaction), {
            email: typed.slice(0, EMAIL_MAX_LENGTH),
            error,
          }),
        );
      if (typed.length > EMAIL_MAX_LENGTH || !EMAIL_SHAPE.test(typed)) return again(400, R.badEmail);
      const accepted = await resets.request(
        typed.toLowerCase(),
        originOf(request),
        addressBucket(request.ip),
        request.log,
      );
      if (!accepted) return again(429, R.tooMany);
      return linkPage(reply, 200, resetSentPage(signInUrl(interaction)));
    });

    scope.get(resetPath, PAGE_ROUTE, async (request, reply) => {
      const token = String((request.query as Record<string, unknown>)['token'] ?? '');
      const account = await resets.accountOf(token);
      if (!account) return linkPage(reply, 410, resetInvalidPage(forgotPath));
      return linkPage(reply, 200, resetPasswordPage(resetPath, token, account.email));
    });

    scope.post(resetPath, PAGE_ROUTE, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, string | undefined>;
      const token = String(body['token'] ?? '');
      const password = String(body['password'] ?? '');
      const confirm = String(body['confirm'] ?? '');
      const account = await resets.accountOf(token);
      if (!account) return linkPage(reply, 410, resetInvalidPage(forgotPath));
      const problem = passwordProblemText(password) ?? (password === confirm ? null : PASSWORD_MISMATCH_MESSAGE);
      if (problem) return linkPage(reply, 400, resetPasswordPage(resetPath, token, account.email, { error: problem }));
      const ticket = await resets.reset(token, password, originOf(request));
      if (!ticket) return linkPage(reply, 410, resetInvalidPage(forgotPath));
      // The app starts a sign-in, and the provider's prompt lets this browser in with the ticket.
      return reply
        .header('set-cookie', ticketCookie(ticket))
        .header('cache-control', 'no-store')
        .redirect(`${publicUrl}/`, 303);
    });
  });
}
