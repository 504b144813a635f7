import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Interaction, InteractionResults } from 'oidc-provider';
import type { AccountService } from './accounts.service.js';
import { attemptKey, type AttemptLimiter, type Forgotten, type Limit, LONGEST_WINDOW_MS } from './attempt-limiter.js';
import type { AccountDeletion } from '../modules/self-service/account-deletion.js';
import { FACTOR_MESSAGES, PASSKEY_SIGN_IN_TEXTS, SECOND_FACTOR_TEXTS } from '@ums/contracts/security';
import { HttpError } from '../plugins/http-errors.js';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { secondFactorLimit, type FactorService } from './factors.js';
import type { PasskeyService } from './passkeys.js';
import {
  deletionLeftPage,
  deletionPendingPage,
  enrolmentPage,
  recoveryCodesPage,
  secondFactorPage,
  SIGN_IN_ERROR,
  signInPage,
  TOO_MANY_ATTEMPTS,
} from './pages.js';
import { type PasswordResets, RESET_SIGN_IN_COOKIE, signInTicketFrom } from './password-reset.js';
import { originOf } from './security-events.js';
import { DEVICE_COOKIE, deviceIdFrom, newDeviceId, type SecurityService } from './security.service.js';
import { onFirstUse } from '../lib/on-first-use.js';

const MINUTE = 60 * 1000;
const qrcode = onFirstUse(async () => (await import('qrcode')).default);
/** The sign-in limits, documented in the README's security section. */
export const SIGN_IN_LIMITS = {
  /** Failed guesses for one account from one address. */
  pair: { max: 5, windowMs: 15 * MINUTE },
  /** Failed guesses from one address, whatever the account. */
  address: { max: 30, windowMs: 15 * MINUTE },
  /** Failed guesses for one account from all addresses (not applied to an address with no failures for it). */
  account: { max: 100, windowMs: LONGEST_WINDOW_MS },
  /** Once an account has this many failures in 15 minutes, every attempt on it waits longer, up to 2 s. */
  slowDownAfter: 5,
  slowDownStepMs: 250,
  slowDownMaxMs: 2000,
} as const;
const MAX_EMAIL_LENGTH = 254;
const MAX_PASSWORD_LENGTH = 1024;
const NO_LIMIT = 2_147_483_647;

/** IPv6 clients are limited per /64 (one customer's network), IPv4 per address. */
export function addressBucket(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const first = head ? head.split(':') : [];
  const last = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...first, ...Array<string>(8 - first.length - last.length).fill('0'), ...last]
    : first;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Our sign-in page for the provider's login prompt. Every guess is reserved under its limits before the password is
 * checked, in one atomic call, so concurrent guesses cannot slip past a count made before any of them was recorded.
 * An address that has never failed for an account is not refused for that account's failures elsewhere (only slowed
 * down), so nobody can lock a member out by guessing at their email.
 */
export async function registerSignIn(
  app: FastifyInstance,
  {
    provider,
    accounts,
    limiter,
    mount,
    security,
    resets,
    deletion,
    secureCookies,
    factors,
    passkeys,
    mfaRequiredGroups,
  }: {
    provider: Provider;
    accounts: AccountService;
    limiter: AttemptLimiter;
    mount: string;
    security: SecurityService;
    resets: PasswordResets;
    deletion: AccountDeletion;
    secureCookies: boolean;
    /** Second factors: an account with one is asked for it after its password. */
    factors: FactorService | null;
    /** Passkeys: a sign-in on their own (two factors), or the second step after a password. */
    passkeys: PasskeyService | null;
    /** MFA_REQUIRED_GROUPS: their members set up a second factor right after the password, before the app. */
    mfaRequiredGroups: string[];
  },
) {
  const forgotUrl = (uid: string) => `${mount}/password/forgot?interaction=${encodeURIComponent(uid)}`;
  /** The device cookie lives 400 days (the most browsers keep one) and goes only to the provider's pages. */
  const deviceCookie = (id: string) =>
    `${DEVICE_COOKIE}=${id}; Path=${mount}/; Max-Age=${400 * 24 * 3600}; HttpOnly; SameSite=Lax${secureCookies ? '; Secure' : ''}`;
  /**
   * Recording never fails a sign-in: a failure to write the activity is logged, `instead` is done (what the record
   * was to do besides), and the member goes on.
   */
  const safely = (
    work: Promise<unknown>,
    log: { warn: (o: object, m: string) => void },
    instead?: () => Promise<unknown>,
  ) =>
    work.catch(async (error: unknown) => {
      log.warn({ err: error }, 'security activity not recorded');
      await instead?.();
    });

  /**
   * The interaction a request works on, read from the store once per request: oidc-provider's `interactionResult`
   * would read it again to save a result (decision 041).
   */
  const interactions = new WeakMap<object, Interaction>();
  async function interactionOf(request: FastifyRequest, reply: FastifyReply): Promise<Interaction> {
    let interaction = interactions.get(request.raw);
    if (interaction === undefined) {
      interaction = await provider.interactionDetails(request.raw, reply.raw);
      interactions.set(request.raw, interaction);
    }
    return interaction;
  }
  /** The result of this request's interaction saved, as `interactionResult` saves it: where the browser goes next. */
  async function saveResult(request: FastifyRequest, reply: FastifyReply, result: InteractionResults) {
    const interaction = await interactionOf(request, reply);
    interaction.result = result;
    // For the rest of its life, as oidc-provider saves it (at least a second: the store keeps a 0 for ever).
    await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
    return interaction.returnTo;
  }
  /** The interaction finished with this result, as `interactionFinished` finishes it: back to the provider. */
  async function finishInteraction(request: FastifyRequest, reply: FastifyReply, result: InteractionResults) {
    const returnTo = await saveResult(request, reply, result);
    return reply.status(303).header('location', returnTo).send();
  }

  /** A verified sign-in: who, whether to keep the session, the browser, and how (RFC 8176 `amr` values). */
  type Login = { accountId: string; remember: boolean; deviceId: string; amr: string[] };
  /**
   * What an interaction holds between pages: a verified sign-in waiting for the member's decision about their closed
   * account, or a password waiting for the second factor (with its attempt reservation, released once both pass).
   */
  type Decision = {
    umsDeletion?: Login;
    /** A password of a group that needs two factors, waiting for its authenticator app to be set up. */
    umsEnrolment?: Login & { email: string; at: number; reservation: number[]; recoveryCodes?: string[] };
    umsSecondFactor?: Login & {
      email: string;
      at: number;
      reservation: number[];
      methods: { totp: boolean; passkey: boolean };
    };
  };
  const passkeyForm = (uid: string) =>
    passkeys
      ? {
          passkey: {
            options: `${mount}/interaction/${encodeURIComponent(uid)}/passkey/options`,
            action: `${mount}/interaction/${encodeURIComponent(uid)}/passkey`,
          },
        }
      : {};
  /** A password waits this long for its second factor; then the sign-in starts again. */
  const SECOND_FACTOR_WAIT_MS = 5 * 60 * 1000;
  const secondFactorUrl = (uid: string, recovery = false) =>
    `${mount}/interaction/${encodeURIComponent(uid)}/second-factor${recovery ? '?with=recovery' : ''}`;
  const showSecondFactor = (
    reply: FastifyReply,
    uid: string,
    methods: { totp: boolean; passkey: boolean },
    options: { recovery?: boolean; error?: string; status?: number } = {},
  ) =>
    reply
      .status(options.status ?? 200)
      .type('text/html')
      .header('cache-control', 'no-store')
      .send(
        secondFactorPage(secondFactorUrl(uid, options.recovery), {
          ...(options.recovery ? { recovery: true } : {}),
          ...(options.error ? { error: options.error } : {}),
          otherWay: secondFactorUrl(uid, !options.recovery),
          signInUrl: `${mount}/interaction/${encodeURIComponent(uid)}`,
          totp: methods.totp,
          ...(methods.passkey ? passkeyForm(uid) : {}),
        }),
      );

  /**
   * The first factor passed. An account with a second factor is asked for it: the sign-in waits in the interaction
   * (any process can resume it) and nothing of it is recorded, released or told until both factors pass.
   */
  async function firstFactorPassed(
    request: FastifyRequest,
    reply: FastifyReply,
    uid: string,
    login: Login & { email: string },
    reservation: number[],
    /** Keys whose failures the right password forgives (this address's for this account). */
    forgiven: string[] = [],
    /** What the account's read already told (a password sign-in's, decision 055); else each is asked. */
    known?: { secondFactor: boolean; deleteAfter: Date | null },
  ) {
    // Forgiven now even when the second factor is never given; else with the reservation, by the sign-in's record.
    const forgive = () => limiter.forget({ ids: [], keys: forgiven });
    if (factors && (known?.secondFactor ?? (await factors.hasSecondFactor(login.accountId)))) {
      await forgive();
      const methods = {
        totp: await factors.hasTotp(login.accountId),
        passkey: passkeys ? await passkeys.has(login.accountId) : false,
      };
      const held: Decision = { umsSecondFactor: { ...login, at: Date.now(), reservation, methods } };
      await saveResult(request, reply, held);
      return showSecondFactor(reply, uid, methods);
    }
    const account = factors && mfaRequiredGroups.length > 0 ? await accounts.findById(login.accountId) : null;
    if (factors && account?.groups.some((group) => mfaRequiredGroups.includes(group))) {
      await forgive();
      const held: Decision = { umsEnrolment: { ...login, at: Date.now(), reservation } };
      await saveResult(request, reply, held);
      return showEnrolment(reply, uid, await factors.startTotp(login.accountId, login.email));
    }
    // The reservation and the forgiven failures go with the sign-in's record, in its statement (decision 055).
    const forgets = { ids: reservation, keys: forgiven };
    return signInOrAsk(request, reply, uid, login, { forgets, ...(known ? { deleteAfter: known.deleteAfter } : {}) });
  }

  const enrolUrl = (uid: string, step: 'enrol' | 'enrolled') =>
    `${mount}/interaction/${encodeURIComponent(uid)}/${step}`;
  async function showEnrolment(
    reply: FastifyReply,
    uid: string,
    setup: { secret: string; otpauthUrl: string },
    options: { error?: string; status?: number } = {},
  ) {
    const QRCode = await qrcode();
    const qrSvg = await QRCode.toString(setup.otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return reply
      .status(options.status ?? 200)
      .type('text/html')
      .header('cache-control', 'no-store')
      .send(
        enrolmentPage(enrolUrl(uid, 'enrol'), {
          qrSvg,
          secret: setup.secret,
          ...(options.error ? { error: options.error } : {}),
        }),
      );
  }

  /**
   * The member proved who they are. A closed account in its grace period is not signed in yet: the page asks whether
   * to keep it, and the verified sign-in waits in the interaction (stored by the provider, any process can resume it).
   */
  async function signInOrAsk(
    request: FastifyRequest,
    reply: FastifyReply,
    uid: string,
    signedIn: Login,
    given: {
      /** When the account is to be deleted, when its read already told (null: it is not); else it is asked. */
      deleteAfter?: Date | null;
      /** The attempts this sign-in forgets (its reservation, the failures its password forgives). */
      forgets?: Forgotten;
    } = {},
  ) {
    const login: Login = {
      accountId: signedIn.accountId,
      remember: signedIn.remember,
      deviceId: signedIn.deviceId,
      amr: signedIn.amr,
    };
    const deleteAfter = given.deleteAfter === undefined ? await deletion.pending(login.accountId) : given.deleteAfter;
    if (deleteAfter) {
      if (given.forgets) await limiter.forget(given.forgets);
      const decision: Decision = { umsDeletion: login };
      await saveResult(request, reply, decision);
      return reply
        .type('text/html')
        .header('cache-control', 'no-store')
        .send(
          deletionPendingPage(
            `${mount}/interaction/${uid}/keep-account`,
            `${mount}/interaction/${uid}/leave`,
            deleteAfter,
          ),
        );
    }
    // Should the record fail, the attempts it was to forget are forgotten alone, and the record is tried once more
    // without them (it may have failed for their sake).
    const { forgets } = given;
    const record = (also?: Forgotten) => security.signedIn(login.accountId, originOf(request), login.deviceId, also);
    await safely(
      record(forgets),
      request.log,
      forgets &&
        (async () => {
          await limiter.forget(forgets);
          await safely(record(), request.log);
        }),
    );
    return finishInteraction(request, reply, {
      login: { accountId: login.accountId, remember: login.remember, amr: login.amr },
    });
  }

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const interactionPath = `${mount}/interaction/:uid`;
    scope.get(interactionPath, { config: { policy: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const details = await interactionOf(request, reply);
      if (details.prompt.name !== 'login') {
        // Consent is granted by loadExistingGrant; anything else just continues.
        reply.hijack();
        return provider.interactionFinished(request.raw, reply.raw, {}, { mergeWithLastSubmission: true });
      }
      // The browser that just set a new password through a link is signed in with the ticket it was given.
      const ticket = signInTicketFrom(request.headers.cookie);
      if (ticket) {
        const cleared = `${RESET_SIGN_IN_COOKIE}=; Path=${mount}/interaction/; Max-Age=0; HttpOnly; SameSite=Lax`;
        const accountId = await resets.redeemSignIn(ticket);
        const account = accountId ? await accounts.findById(accountId) : null;
        if (account) {
          reply.header('set-cookie', cleared);
          const deviceId = deviceIdFrom(request.headers.cookie) ?? newDeviceId();
          // A new password set through a mailed link is the first factor only: a second one is still asked for.
          const login = { accountId: account.accountId, email: account.email, remember: false, deviceId, amr: ['pwd'] };
          return firstFactorPassed(request, reply, details.uid, login, []);
        }
        reply.header('set-cookie', cleared);
      }
      // A browser without a device cookie gets one now, so its sign-in can be recognised next time.
      if (!deviceIdFrom(request.headers.cookie)) reply.header('set-cookie', deviceCookie(newDeviceId()));
      return reply
        .type('text/html')
        .header('cache-control', 'no-store')
        .send(
          signInPage(`${mount}/interaction/${details.uid}/login`, {
            forgotUrl: forgotUrl(details.uid),
            ...passkeyForm(details.uid),
          }),
        );
    });

    scope.post(
      `${interactionPath}/login`,
      { config: { policy: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        const details = await interactionOf(request, reply);
        const body = (request.body ?? {}) as Record<string, string | undefined>;
        const typed = String(body['email'] ?? '').trim();
        const email = typed.toLowerCase();
        const password = String(body['password'] ?? '');
        const remember = body['remember'] === 'yes';
        const answer = (status: number, error: string) =>
          reply
            .status(status)
            .type('text/html')
            .header('cache-control', 'no-store')
            .send(
              signInPage(`${mount}/interaction/${details.uid}/login`, {
                email: typed.slice(0, MAX_EMAIL_LENGTH),
                error,
                remember,
                forgotUrl: forgotUrl(details.uid),
                ...passkeyForm(details.uid),
              }),
            );

        const address = addressBucket(request.ip);
        const perAddress: Limit = { key: attemptKey('address', address), ...SIGN_IN_LIMITS.address };
        if (!email || email.length > MAX_EMAIL_LENGTH || !password || password.length > MAX_PASSWORD_LENGTH) {
          // Not a possible account: a wrong sign-in like any other, counted against the address only.
          const reservation = await limiter.reserve([perAddress]);
          if (!reservation.reserved) return answer(429, TOO_MANY_ATTEMPTS);
          await accounts.verifyCredentials('', 'not-a-possible-password');
          return answer(401, SIGN_IN_ERROR);
        }

        const pair: Limit = { key: attemptKey('pair', email, address), ...SIGN_IN_LIMITS.pair };
        // Counted always; enforced only for addresses that have already failed for this account (`familiar`).
        const account: Limit = { key: attemptKey('account', email), ...SIGN_IN_LIMITS.account };
        const limits = { pair, address: perAddress, account };
        const recentMs = SIGN_IN_LIMITS.pair.windowMs;
        // The guess reserved and the account read in one statement (decision 057).
        const reserved = await accounts.reserveSignInWithAccount(email, limits, recentMs);
        let { guess } = reserved;
        // The owner is never locked out by strangers: a browser that has signed in to this account before is exempt
        // from the account's daily cap (the per-address limits still hold for it).
        const browser = deviceIdFrom(request.headers.cookie);
        if (
          !guess.reservation.reserved &&
          guess.reservation.refused.key === account.key &&
          browser !== null &&
          (await security.isKnownDevice(email, browser))
        ) {
          guess = await limiter.reserveSignIn({ ...limits, account: { ...account, max: NO_LIMIT } }, recentMs);
        }
        const { reservation, recent } = guess;
        if (!reservation.reserved) return answer(429, TOO_MANY_ATTEMPTS);

        const slowed = recent >= SIGN_IN_LIMITS.slowDownAfter;
        if (slowed) {
          const over = recent - SIGN_IN_LIMITS.slowDownAfter + 1;
          await sleep(Math.min(SIGN_IN_LIMITS.slowDownMaxMs, over * SIGN_IN_LIMITS.slowDownStepMs));
        }

        // A guess that waited reads the account again: a password changed, a second factor added or the account
        // closed while it waited counts.
        const found = await accounts.signInWithPassword(email, password, slowed ? undefined : reserved.read);
        if (!found) {
          await safely(security.signInFailed(email, originOf(request)), request.log);
          return answer(401, SIGN_IN_ERROR);
        }
        const { accountId, email: accountEmail } = found.account;
        return firstFactorPassed(
          request,
          reply,
          details.uid,
          { accountId, email: accountEmail, remember, deviceId: browser ?? newDeviceId(), amr: ['pwd'] },
          reservation.ids,
          [pair.key],
          { secondFactor: found.secondFactor, deleteAfter: found.deleteAfter },
        );
      },
    );

    /** The password this interaction holds for its second factor, while it is fresh; else null. */
    const heldForSecondFactor = async (request: FastifyRequest, reply: FastifyReply) => {
      const details = await interactionOf(request, reply);
      const held = (details.result as Decision | undefined)?.umsSecondFactor ?? null;
      return { uid: details.uid, held: held && Date.now() - held.at < SECOND_FACTOR_WAIT_MS ? held : null };
    };

    // Switching between the authenticator code and a recovery code.
    scope.get(
      `${interactionPath}/second-factor`,
      { config: { policy: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        const { uid, held } = await heldForSecondFactor(request, reply);
        if (!held) return reply.redirect(`${mount}/interaction/${uid}`);
        const recovery = (request.query as Record<string, string | undefined>)['with'] === 'recovery';
        return showSecondFactor(reply, uid, held.methods, { recovery });
      },
    );

    // Step two: the authenticator code, or a recovery code. Counted under the account's second-factor limit.
    scope.post(
      `${interactionPath}/second-factor`,
      { config: { policy: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        const { uid, held } = await heldForSecondFactor(request, reply);
        if (!held) {
          return reply
            .status(401)
            .type('text/html')
            .header('cache-control', 'no-store')
            .send(
              signInPage(`${mount}/interaction/${uid}/login`, {
                error: SECOND_FACTOR_TEXTS.expired,
                forgotUrl: forgotUrl(uid),
              }),
            );
        }
        const body = (request.body ?? {}) as Record<string, string | undefined>;
        const recovery = typeof body['recovery'] === 'string';
        const typed = String(body[recovery ? 'recovery' : 'code'] ?? '').slice(0, 64);
        const outcome = recovery
          ? await factors!.useRecoveryCode(held.accountId, typed, originOf(request))
          : await factors!.verifyTotp(held.accountId, held.email, typed.replace(/\s+/g, ''));
        if (outcome === 'limited') {
          return showSecondFactor(reply, uid, held.methods, {
            recovery,
            error: SECOND_FACTOR_TEXTS.tooMany,
            status: 429,
          });
        }
        if (outcome === 'wrong') {
          const error = recovery ? SECOND_FACTOR_TEXTS.wrongRecoveryCode : SECOND_FACTOR_TEXTS.wrongCode;
          return showSecondFactor(reply, uid, held.methods, { recovery, error, status: 401 });
        }
        await limiter.release({ reserved: true, ids: held.reservation });
        return signInOrAsk(request, reply, uid, { ...held, amr: [...held.amr, 'otp', 'mfa'] });
      },
    );

    /** The password this interaction holds while its account sets up a second factor, while it is fresh. */
    const heldForEnrolment = async (request: FastifyRequest, reply: FastifyReply) => {
      const details = await interactionOf(request, reply);
      const held = (details.result as Decision | undefined)?.umsEnrolment ?? null;
      return { uid: details.uid, held: held && Date.now() - held.at < SECOND_FACTOR_WAIT_MS ? held : null };
    };

    // Enrolment, step one: the first code turns the authenticator app on; the recovery codes are shown next.
    scope.post(
      `${interactionPath}/enrol`,
      { config: { policy: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        const { uid, held } = await heldForEnrolment(request, reply);
        if (!held || !factors) return reply.redirect(`${mount}/interaction/${uid}`);
        const code = String(((request.body ?? {}) as Record<string, unknown>)['code'] ?? '').replace(/\s+/g, '');
        try {
          if (!/^\d{6}$/.test(code)) throw new HttpError(400, FACTOR_MESSAGES.malformedCode);
          const { recoveryCodes } = await factors.confirmTotp(held.accountId, held.email, code, originOf(request));
          const next: Decision = { umsEnrolment: { ...held, recoveryCodes: recoveryCodes ?? [] } };
          await saveResult(request, reply, next);
          return reply
            .type('text/html')
            .header('cache-control', 'no-store')
            .send(recoveryCodesPage(enrolUrl(uid, 'enrolled'), recoveryCodes ?? []));
        } catch (error) {
          if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
          // The key being set up stays the same: the page shows it again with what went wrong.
          const setup = await factors.pendingTotp(held.accountId, held.email);
          if (!setup) return reply.redirect(`${mount}/interaction/${uid}`);
          return showEnrolment(reply, uid, setup, { error: error.message, status: error.statusCode });
        }
      },
    );

    // Enrolment, step two: the codes were shown; the sign-in goes on with two factors.
    scope.post(
      `${interactionPath}/enrolled`,
      { config: { policy: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        const { uid, held } = await heldForEnrolment(request, reply);
        if (!held?.recoveryCodes) return reply.redirect(`${mount}/interaction/${uid}`);
        await limiter.release({ reserved: true, ids: held.reservation });
        return signInOrAsk(request, reply, uid, { ...held, amr: [...held.amr, 'otp', 'mfa'] });
      },
    );

    if (passkeys) {
      const ceremony = passkeys;
      // The options of a passkey ceremony: any of this site's passkeys on the sign-in page, the account's own as the
      // second step after its password.
      scope.get(
        `${interactionPath}/passkey/options`,
        { config: { policy: 'public' }, schema: { hide: true } },
        async (request, reply) => {
          const { held } = await heldForSecondFactor(request, reply);
          return reply.header('cache-control', 'no-store').send(await ceremony.signInOptions(held?.accountId ?? null));
        },
      );

      // The browser's answer, posted as a form: a passkey with user verification signs in on its own (two factors),
      // or completes the password's second step. Attempts count under the address's limit, or the account's second
      // factor limit for a second step.
      scope.post(
        `${interactionPath}/passkey`,
        { config: { policy: 'public' }, schema: { hide: true } },
        async (request, reply) => {
          const { uid, held } = await heldForSecondFactor(request, reply);
          const body = (request.body ?? {}) as Record<string, string | undefined>;
          let answer: unknown = null;
          try {
            answer = JSON.parse(String(body['response'] ?? '').slice(0, 64 * 1024));
          } catch {
            // Not JSON: refused below like any answer that does not verify.
          }
          const limit: Limit = held
            ? secondFactorLimit(held.accountId)
            : { key: attemptKey('address', addressBucket(request.ip)), ...SIGN_IN_LIMITS.address };
          const reservation = await limiter.reserve([limit]);
          const refuse = (status: number, error: string) =>
            held
              ? showSecondFactor(reply, uid, held.methods, { error, status })
              : reply
                  .status(status)
                  .type('text/html')
                  .header('cache-control', 'no-store')
                  .send(
                    signInPage(`${mount}/interaction/${uid}/login`, {
                      error,
                      forgotUrl: forgotUrl(uid),
                      ...passkeyForm(uid),
                    }),
                  );
          if (!reservation.reserved) return refuse(429, held ? SECOND_FACTOR_TEXTS.tooMany : TOO_MANY_ATTEMPTS);
          const verified =
            answer && typeof answer === 'object'
              ? await ceremony.verifySignIn(answer as AuthenticationResponseJSON, held?.accountId ?? null)
              : null;
          if (!verified) return refuse(401, PASSKEY_SIGN_IN_TEXTS.refused);
          await limiter.release(reservation);
          if (held) {
            await limiter.release({ reserved: true, ids: held.reservation });
            return signInOrAsk(request, reply, uid, { ...held, amr: [...held.amr, ...verified.amr] });
          }
          const deviceId = deviceIdFrom(request.headers.cookie) ?? newDeviceId();
          return signInOrAsk(request, reply, uid, {
            accountId: verified.accountId,
            remember: body['remember'] === 'yes',
            deviceId,
            amr: verified.amr,
          });
        },
      );
    }

    /** The verified sign-in this interaction holds for a closed account, if it holds one. */
    const decisionOf = async (request: FastifyRequest, reply: FastifyReply) => {
      const details = await interactionOf(request, reply);
      return { uid: details.uid, held: (details.result as Decision | undefined)?.umsDeletion ?? null };
    };

    // "Keep my account": the deletion is cancelled (the member is told by mail) and the held sign-in goes on.
    scope.post(
      `${interactionPath}/keep-account`,
      { config: { policy: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        const { uid, held } = await decisionOf(request, reply);
        if (!held) return reply.redirect(`${mount}/interaction/${uid}`);
        await deletion.cancel(held.accountId, originOf(request));
        return signInOrAsk(request, reply, uid, held);
      },
    );

    // "Continue with deletion": nothing changes; the page says when the account goes and how to keep it until then.
    scope.get(
      `${interactionPath}/leave`,
      { config: { policy: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        const { uid, held } = await decisionOf(request, reply);
        const deleteAfter = held ? await deletion.pending(held.accountId) : null;
        if (!deleteAfter) return reply.redirect(`${mount}/interaction/${uid}`);
        return reply.type('text/html').header('cache-control', 'no-store').send(deletionLeftPage(deleteAfter));
      },
    );
  });
}
