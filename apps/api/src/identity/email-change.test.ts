import { createHash, randomBytes } from 'node:crypto';
import {
  EMAIL_CHANGE_TEXTS as T,
  FACTOR_MESSAGES,
  PASSWORD_RESET_TEXTS as R,
  type AdminMember,
  type AdminMemberDetails,
  type EmailChangeStatus,
  type SecurityActivity,
} from '@ums/contracts';
import { attemptSignIn, browser, refresh, signIn, type Browser } from '@ums/testkit/oidc-browser';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { anotherProcess, apiCaller, providerApp } from '../../test/oidc-client.js';
import { smtpInbox } from '../../test/smtp-inbox.js';
import { waitFor } from '../../test/wait-for.js';
import { MAIL_GREETING } from '../mail/alerts.js';
import { createAccountService } from './accounts.service.js';
import { EMAIL_CHANGE_LIMITS } from './email-change.js';
import { MAX_PASSWORD_ATTEMPTS } from './password-change.js';
import { SIGN_IN_ERROR } from './pages.js';

const PASSWORD = 'Moving-House-2026!';
const NEW_PASSWORD = 'Taken-Back-2026!';

const inbox = await smtpInbox();
const server = await providerApp({ SMTP_URL: inbox.url }, { deliverMail: true });
const { base, database } = server;
const otherBase = await anotherProcess(server, { SMTP_URL: inbox.url });
const accounts = createAccountService({ db: database.db });

const unique = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.com`;

/** A member signed in through the provider, with their API caller. */
async function newMember(options: { emailVerified?: boolean } = {}) {
  const email = unique('mover');
  const account = await accounts.add({ email, password: PASSWORD, ...options });
  return { email, accountId: account.accountId, ...(await session(email)) };
}

/** One more browser signed in to the account. */
async function session(email: string, password = PASSWORD) {
  const tokens = await signIn(base, email, password);
  return { tokens, call: apiCaller(base, tokens.access_token) };
}

type Caller = ReturnType<typeof apiCaller>;

/**
 * The asking session's caller after the change is made: its access tokens carried the old address, so they stop
 * working and it renews them with its refresh token, as the web app does on a 401.
 */
async function renewed(member: { tokens: { refresh_token: string } }) {
  const answer = await refresh(base, member.tokens.refresh_token);
  expect(answer.status).toBe(200);
  return { answer: answer.body, call: apiCaller(base, answer.body.access_token!) };
}
const statusOf = async (call: Caller) => (await call('GET', '/api/me/email-change')).body.data[0] as EmailChangeStatus;
const ask = (call: Caller, newEmail: string, password = PASSWORD) =>
  call('POST', '/api/me/email-change', { newEmail, password });

/**
 * The status the caller's token gets from the API (on `at`, one process of the product) once it is refused, or after
 * a second if it never is: a revocation reaches every process within that.
 */
const refusedWithinASecond = (call: Caller, at = base) =>
  waitFor(
    async () => (await call('GET', '/api/me/email-change', undefined, at)).status,
    (status) => status === 401,
    1000,
  );

/** The mails to one address with this subject, once `count` have come. */
async function mailsTo(email: string, subject: string, count = 1) {
  const mails = await waitFor(
    () => inbox.to(email).filter((mail) => mail.subject === subject),
    (list) => list.length >= count,
  );
  expect(mails).toHaveLength(count);
  return mails;
}

/** The link of the newest mail to an address with this subject. */
/** The links of the first `count` mails of this subject to `email`, in the order they arrived. */
async function linksIn(email: string, subject: string, path: string, count = 1) {
  const mails = await mailsTo(email, subject, count);
  const links = mails.map((mail) => new RegExp(`(http\\S+/oidc/${path}\\?token=\\S+)`).exec(mail.text ?? '')?.[1]);
  for (const link of links) expect(link).toBeDefined();
  return links as string[];
}
async function linkIn(email: string, subject: string, path: string, count = 1) {
  return (await linksIn(email, subject, path, count)).at(-1)!;
}
const confirmLink = (email: string, count = 1) => linkIn(email, T.linkSubject, 'email/confirm', count);

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const page = async (response: Response) => ({ status: response.status, html: await response.text() });
/** Presses the page's one button, as a browser would. */
const press = (link: string, go: Browser = browser(), at = base) =>
  go(`${at}${new URL(link).pathname}`, form({ token: tokenOf(link) })).then(page);

async function activityOf(call: Caller) {
  const { body } = await call('GET', '/api/activity');
  return (body.data as SecurityActivity[]).map((entry) => entry.event);
}

async function adminCaller() {
  const email = unique('admin');
  await accounts.add({ email, password: PASSWORD, admin: true });
  return (await session(email)).call;
}

describe('asking for a change', () => {
  it('answers 202, mails a link valid 24 hours to the new address (stored only as its hash), tells the current address, and changes nothing yet', async () => {
    const member = await newMember();
    const newEmail = unique('new-home');
    const answer = await ask(member.call, newEmail);
    expect(answer.status).toBe(202);
    expect(answer.body.message).toBe(T.requested);
    const status = answer.body.data[0] as EmailChangeStatus;
    expect(status).toMatchObject({ email: member.email, emailVerified: true, pending: { newEmail } });
    const hours = (Date.parse(status.pending!.expiresAt) - Date.parse(status.pending!.requestedAt)) / 3_600_000;
    expect(hours).toBeCloseTo(24, 2);
    expect(await statusOf(member.call)).toEqual(status);

    const link = await confirmLink(newEmail);
    expect(link.startsWith(`${base}/oidc/email/confirm?token=`)).toBe(true);
    const mail = inbox.to(newEmail)[0]!;
    expect(mail.text?.split('\n')[0]).toBe(MAIL_GREETING);
    expect(mail.text).toContain('It works once, within 24 hours:');
    // A mistyped address belongs to a stranger: the mail says nothing of the member, nor where they asked from.
    expect(mail.text).not.toContain(member.email);
    expect(mail.text).not.toContain('from the address');
    // The current address hears of it at once, so its owner can cancel a change they did not ask for.
    const [told] = await mailsTo(member.email, T.requestedSubject);
    expect(told!.text).toContain(
      `to change the email address of your UMS Health account (${member.email}) to ${newEmail}`,
    );
    expect(told!.text).toContain('cancel the change in Login Details');
    const { rows } = await database.pool.query('select * from email_changes where account_id = $1', [member.accountId]);
    expect(JSON.stringify(rows)).not.toContain(tokenOf(link));
    expect(rows[0].token_hash).toBe(createHash('sha256').update(tokenOf(link)).digest('hex'));

    // Until the link is opened, the account keeps its address: sign-in, tokens and the directory say the old one.
    const [account] = (
      await database.pool.query('select email from accounts where account_id = $1', [member.accountId])
    ).rows;
    expect(account.email).toBe(member.email);
    const renewed = await refresh(base, member.tokens.refresh_token);
    expect(decodeJwt(renewed.body.id_token!).email).toBe(member.email);
    expect(await activityOf(member.call)).toContain('email-change-requested');
  });

  it('refuses the same address, a malformed or over-long one and a wrong password, each on its field, changing nothing', async () => {
    const member = await newMember();
    const refusals = [
      [await ask(member.call, member.email.toUpperCase()), 'newEmail', T.sameAddress],
      [await ask(member.call, 'not-an-address'), 'newEmail', T.badAddress],
      [await ask(member.call, `${'a'.repeat(250)}@example.com`), 'newEmail', T.tooLong],
      [await ask(member.call, unique('elsewhere'), 'Wrong-Password-1!'), 'password', T.wrongPassword],
    ] as const;
    for (const [answer, field, sentence] of refusals) {
      expect(answer.status).toBe(400);
      expect((answer.body as { errors?: Record<string, string[]> }).errors?.[field]).toEqual([sentence]);
    }
    const { rows } = await database.pool.query('select count(*)::int as n from email_changes where account_id = $1', [
      member.accountId,
    ]);
    expect(rows[0].n).toBe(0);
    expect((await statusOf(member.call)).pending).toBeNull();
  });

  it('asks an account with a second factor for its code too, and takes a recovery code', async () => {
    const member = await newMember();
    const setup = await member.call('POST', '/api/security/totp/setup');
    const { secret } = setup.body.data[0] as { secret: string };
    const code = () =>
      new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() });
    const confirmed = await member.call('POST', '/api/security/totp', { code: code() });
    const { recoveryCodes } = confirmed.body.data[0] as { recoveryCodes: string[] };

    const withoutCode = await ask(member.call, unique('stepped'));
    expect(withoutCode.status).toBe(400);
    expect((withoutCode.body as { errors?: Record<string, string[]> }).errors?.['code']).toEqual([
      FACTOR_MESSAGES.codeRequired,
    ]);
    expect((await statusOf(member.call)).pending).toBeNull();
    const newEmail = unique('stepped');
    const withCode = await member.call('POST', '/api/me/email-change', {
      newEmail,
      password: PASSWORD,
      code: recoveryCodes[0],
    });
    expect(withCode.status).toBe(202);
    expect((await statusOf(member.call)).pending?.newEmail).toBe(newEmail);
  });

  it(`counts wrong passwords with the password change's limit: of ${MAX_PASSWORD_ATTEMPTS + 3} concurrent guesses, ${MAX_PASSWORD_ATTEMPTS} are checked and 3 refused`, async () => {
    const member = await newMember();
    const answers = await Promise.all(
      Array.from({ length: MAX_PASSWORD_ATTEMPTS + 3 }, () => ask(member.call, unique('guess'), 'Wrong-Password-1!')),
    );
    expect(answers.filter((a) => a.status === 400)).toHaveLength(MAX_PASSWORD_ATTEMPTS);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(3);
    // The right password is refused too until the window passes: the guesses were spent.
    expect((await ask(member.call, unique('late'))).status).toBe(429);
  });

  it("answers an address another account uses exactly like a free one, and tells that account's owner someone tried", async () => {
    const member = await newMember();
    const owner = unique('owner');
    await accounts.add({ email: owner, password: PASSWORD });
    const taken = await ask(member.call, owner.toUpperCase());
    const free = await ask((await newMember()).call, unique('free'));
    expect(taken.status).toBe(free.status);
    expect(taken.body.message).toBe(free.body.message);
    expect(Object.keys(taken.body.data[0] as object)).toEqual(Object.keys(free.body.data[0] as object));
    expect((taken.body.data[0] as EmailChangeStatus).pending?.newEmail).toBe(owner.toUpperCase());

    const [tried] = await mailsTo(owner, T.triedSubject);
    expect(tried!.text).toContain('It is the address of your account, so nothing changed and it stays yours.');
    expect(tried!.text).not.toContain(member.email);
    expect(inbox.to(owner).filter((mail) => mail.subject === T.linkSubject)).toHaveLength(0);
  });

  it(`sends one account at most ${EMAIL_CHANGE_LIMITS.account.max} links an hour, counting concurrent requests exactly`, async () => {
    const member = await newMember();
    // Resending counts as sending: two links go, one asked for and one sent again.
    expect((await ask(member.call, unique('one'))).status).toBe(202);
    expect((await member.call('POST', '/api/me/email-change/resend')).status).toBe(202);
    const left = EMAIL_CHANGE_LIMITS.account.max - 2;
    const answers = await Promise.all(Array.from({ length: left + 1 }, () => ask(member.call, unique('many'))));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(left);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.body.message).toBe(T.tooMany);
  });

  it(`mails one address at most ${EMAIL_CHANGE_LIMITS.address.max} times an hour, whichever accounts ask at once`, async () => {
    const target = unique('popular');
    const members = await Promise.all(Array.from({ length: EMAIL_CHANGE_LIMITS.address.max + 2 }, () => newMember()));
    const answers = await Promise.all(members.map((member) => ask(member.call, target)));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(EMAIL_CHANGE_LIMITS.address.max);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(2);
    await mailsTo(target, T.linkSubject, EMAIL_CHANGE_LIMITS.address.max);
  });

  it('cancels a pending change (its link then says so) and refuses to resend or cancel when nothing is pending', async () => {
    const member = await newMember();
    const newEmail = unique('cancelled');
    await ask(member.call, newEmail);
    const link = await confirmLink(newEmail);
    const cancelled = await member.call('DELETE', '/api/me/email-change');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.message).toBe(T.cancelled);
    expect((cancelled.body.data[0] as EmailChangeStatus).pending).toBeNull();
    expect(await page(await browser()(link))).toMatchObject({ status: 410 });
    expect((await press(link)).html).toContain(T.linkCancelled);
    for (const [method, path] of [
      ['DELETE', '/api/me/email-change'],
      ['POST', '/api/me/email-change/resend'],
    ] as const) {
      const answer = await member.call(method, path);
      expect(answer.status).toBe(409);
      expect(answer.body.message).toBe(T.nothingPending);
    }
  });
});

describe('opening the link', () => {
  it('shows what it will do and changes nothing until its button is pressed', async () => {
    const member = await newMember();
    const newEmail = unique('shown');
    await ask(member.call, newEmail);
    const opened = await page(await browser()(await confirmLink(newEmail)));
    expect(opened.status).toBe(200);
    expect(opened.html).toContain(`<h1>${T.confirmTitle}</h1>`);
    expect(opened.html).toContain(T.confirm);
    expect((await statusOf(member.call)).email).toBe(member.email);
  });

  it('changes the address everywhere at once, ends every other session on every process within a second, keeps the asking one, and mails both addresses', async () => {
    const member = await newMember();
    await member.call('POST', '/api/userdetails/internal', { firstName: 'Robin', email: member.email });
    const elsewhere = await session(member.email);
    const otherCall = apiCaller(base, elsewhere.tokens.access_token);
    expect((await otherCall('GET', '/api/me/email-change', undefined, otherBase)).status).toBe(200);
    const newEmail = unique('moved');
    await ask(member.call, newEmail);
    const confirmed = await press(await confirmLink(newEmail));
    expect(confirmed.status).toBe(200);
    expect(confirmed.html).toContain(T.confirmedText(newEmail));

    // The other browser is signed out on every process within a second; its refresh token is gone.
    expect(await refusedWithinASecond(otherCall, otherBase)).toBe(401);
    expect((await refresh(base, elsewhere.tokens.refresh_token)).status).toBe(400);

    // The asking browser goes on: its access token (saying the old address) stops working, and the tokens it renews
    // with its refresh token carry the new, verified address.
    expect(await refusedWithinASecond(member.call)).toBe(401);
    const asking = await renewed(member);
    expect(await statusOf(asking.call)).toEqual({ email: newEmail, emailVerified: true, pending: null });
    expect(decodeJwt(asking.answer.id_token!)).toMatchObject({ email: newEmail, email_verified: true });
    expect(decodeJwt(asking.answer.access_token!).email).toBe(newEmail);
    const details = await asking.call('GET', '/api/userdetails/');
    expect(details.body.data[0]).toMatchObject({ email: newEmail, firstName: 'Robin' });

    // The directory shows it; sign-in takes the new address and no longer the old one.
    const admin = await adminCaller();
    const found = await admin('GET', `/api/admin/members?q=${encodeURIComponent(newEmail)}&limit=5`);
    expect((found.body.data as AdminMember[]).map((m) => m.email)).toEqual([newEmail]);
    expect((await signIn(base, newEmail, PASSWORD)).access_token).toBeTruthy();
    expect(await (await attemptSignIn(base, member.email, PASSWORD)).text()).toContain(SIGN_IN_ERROR);

    const [notice] = await mailsTo(member.email, T.changedSubject);
    expect(notice!.text).toContain(`was changed from ${member.email} to ${newEmail}`);
    expect(notice!.text).toMatch(/open this link within 7 days/);
    expect(notice!.text).toMatch(/\/oidc\/email\/revert\?token=/);
    const [welcome] = await mailsTo(newEmail, T.welcomeSubject);
    expect(welcome!.text).toContain(`${newEmail} is the email address of your UMS Health account since`);
    expect(await activityOf(asking.call)).toEqual(expect.arrayContaining(['email-change-requested', 'email-changed']));
  });

  it('lets one of two concurrent confirmations of a link through; the other is told it was used', async () => {
    const member = await newMember();
    const newEmail = unique('raced');
    await ask(member.call, newEmail);
    const link = await confirmLink(newEmail);
    const outcomes = await Promise.all([press(link), press(link, browser(), otherBase)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual([200, 410]);
    expect(outcomes.find((o) => o.status === 410)!.html).toContain(T.linkUsed);
    const { rows } = await database.pool.query(
      `select count(*)::int as n from security_events where subject = $1 and event = 'email-changed'`,
      [member.accountId],
    );
    expect(rows[0].n).toBe(1);
  });

  it('refuses an unknown, expired or superseded link, and an address another account took meanwhile, each in its sentence', async () => {
    for (const token of ['x'.repeat(43), 'not a token', '']) {
      const unknown = await page(await browser()(`${base}/oidc/email/confirm?token=${encodeURIComponent(token)}`));
      expect(unknown).toMatchObject({ status: 410, html: expect.stringContaining(T.linkUnknown) });
    }

    const expiring = await newMember();
    const late = unique('late');
    await ask(expiring.call, late);
    const expired = await confirmLink(late);
    await database.pool.query(
      `update email_changes set expires_at = now() - interval '1 second' where account_id = $1`,
      [expiring.accountId],
    );
    expect(await press(expired)).toMatchObject({ status: 410, html: expect.stringContaining(T.linkExpired) });

    const changing = await newMember();
    const first = unique('first');
    const second = unique('second');
    await ask(changing.call, first);
    const firstLink = await confirmLink(first);
    await ask(changing.call, second);
    expect(await press(firstLink)).toMatchObject({ status: 410, html: expect.stringContaining(T.linkSuperseded) });
    expect((await statusOf(changing.call)).pending?.newEmail).toBe(second);

    const wanted = unique('wanted');
    await ask(changing.call, wanted);
    const wantedLink = await confirmLink(wanted);
    await accounts.add({ email: wanted, password: PASSWORD });
    expect(await press(wantedLink)).toMatchObject({ status: 409, html: expect.stringContaining(T.addressTaken) });
    expect((await statusOf(changing.call)).email).toBe(changing.email);
  });
});

describe('changes that race', () => {
  it('leaves exactly one working link when requests race: the others say a newer change was asked for', async () => {
    const member = await newMember();
    const addresses = [unique('race-a'), unique('race-b'), unique('race-c')];
    const answers = await Promise.all(addresses.map((address) => ask(member.call, address)));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    const { rows } = await database.pool.query(
      `select new_email from email_changes where account_id = $1 and superseded_at is null`,
      [member.accountId],
    );
    expect(rows).toHaveLength(1);
    const winner = rows[0].new_email as string;
    for (const address of addresses) {
      const pressed = await press(await confirmLink(address));
      if (address === winner) expect(pressed.status).toBe(200);
      else expect(pressed).toMatchObject({ status: 410, html: expect.stringContaining(T.linkSuperseded) });
    }
  });

  it('gives an address two accounts confirm at once, on two processes, to one of them; the other is told it is taken', async () => {
    const [first, second] = [await newMember(), await newMember()];
    const wanted = unique('contested');
    await ask(first.call, wanted);
    await ask(second.call, wanted);
    const links = await Promise.all([confirmLink(wanted, 2)]).then(async () =>
      inbox
        .to(wanted)
        .filter((mail) => mail.subject === T.linkSubject)
        .map((mail) => /(http\S+\/oidc\/email\/confirm\?token=\S+)/.exec(mail.text ?? '')![1]!),
    );
    const outcomes = await Promise.all([press(links[0]!), press(links[1]!, browser(), otherBase)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual([200, 409]);
    expect(outcomes.find((o) => o.status === 409)!.html).toContain(T.addressTaken);
    const { rows } = await database.pool.query('select count(*)::int as n from accounts where lower(email) = $1', [
      wanted,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('keeps the session that asked when another session sends the link again: confirming ends the resending one', async () => {
    const member = await newMember();
    const resender = await session(member.email);
    const newEmail = unique('resend-kept');
    await ask(member.call, newEmail);
    const first = await confirmLink(newEmail);
    expect((await resender.call('POST', '/api/me/email-change/resend')).status).toBe(202);
    // The link sent again, whichever of the two mails arrived last.
    const again = (await linksIn(newEmail, T.linkSubject, 'email/confirm', 2)).find((link) => link !== first)!;
    expect((await press(again)).status).toBe(200);
    expect(await refusedWithinASecond(resender.call)).toBe(401);
    expect((await refresh(base, resender.tokens.refresh_token)).status).toBe(400);
    expect((await refresh(base, member.tokens.refresh_token)).status).toBe(200);
  });
});

describe("'This wasn't me'", () => {
  it('restores the old address, ends every session, voids the password and leads to a new one; the old address signs in again', async () => {
    const member = await newMember();
    const thief = unique('thief');
    await ask(member.call, thief);
    await press(await confirmLink(thief));
    const revertLink = await linkIn(member.email, T.changedSubject, 'email/revert');

    const shown = await page(await browser()(revertLink));
    expect(shown.status).toBe(200);
    expect(shown.html).toContain(T.revertText(member.email, thief).replaceAll("'", '&#39;'));
    const go = browser();
    const restored = await go(`${base}/oidc/email/revert`, form({ token: tokenOf(revertLink) }));
    expect(restored.status).toBe(303);
    const resetPage = new URL(restored.headers.get('location')!, base).toString();
    expect(resetPage.startsWith(`${base}/oidc/password/reset?token=`)).toBe(true);

    // Every session ended, the asking one too; the password whoever changed the address knew no longer works.
    expect(await refusedWithinASecond(member.call)).toBe(401);
    expect(await (await attemptSignIn(base, member.email, PASSWORD)).text()).toContain(SIGN_IN_ERROR);
    expect(await (await attemptSignIn(base, thief, PASSWORD)).text()).toContain(SIGN_IN_ERROR);

    // The member sets a new password on the page the restore led to, and signs in with the old address.
    const setPage = await page(await go(resetPage));
    expect(setPage.html).toContain(`<h1>${R.resetTitle}</h1>`);
    const set = await go(
      `${base}/oidc/password/reset`,
      form({ token: tokenOf(resetPage), password: NEW_PASSWORD, confirm: NEW_PASSWORD }),
    );
    expect(set.status).toBe(303);
    const back = await session(member.email, NEW_PASSWORD);
    expect(await statusOf(back.call)).toEqual({ email: member.email, emailVerified: true, pending: null });
    expect(await activityOf(back.call)).toContain('email-change-reverted');

    await mailsTo(member.email, T.revertedSubject);
    await mailsTo(thief, T.removedSubject);
    expect(await press(revertLink)).toMatchObject({ status: 410, html: expect.stringContaining(T.revertUsed) });
  });

  it('removes the second factors added since the change was asked for, so the owner signs in with the new password alone', async () => {
    const member = await newMember();
    const thief = unique('factor-thief');
    await ask(member.call, thief);
    // Whoever asked adds an authenticator app, which would lock the owner out after the restore.
    const setup = await member.call('POST', '/api/security/totp/setup');
    const { secret } = setup.body.data[0] as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
    expect((await member.call('POST', '/api/security/totp', { code })).status).toBe(200);
    await press(await confirmLink(thief));
    const restored = await browser()(`${base}/oidc/email/revert`, {
      ...form({ token: tokenOf(await linkIn(member.email, T.changedSubject, 'email/revert')) }),
    });
    const resetPage = new URL(restored.headers.get('location')!, base).toString();
    await browser()(
      `${base}/oidc/password/reset`,
      form({ token: tokenOf(resetPage), password: NEW_PASSWORD, confirm: NEW_PASSWORD }),
    );
    const { rows } = await database.pool.query(
      `select (select count(*)::int from totp_factors where account_id = $1) as totp,
              (select count(*)::int from recovery_codes where account_id = $1) as codes`,
      [member.accountId],
    );
    expect(rows[0]).toEqual({ totp: 0, codes: 0 });
    const back = await session(member.email, NEW_PASSWORD);
    expect(decodeJwt(back.tokens.access_token).amr).toEqual(['pwd']);
    const [mail] = await mailsTo(member.email, T.revertedSubject);
    expect(mail!.text).toContain(
      '2 two-step verification method(s) added since the change was asked for were removed.',
    );
  });

  it("restores the first address from its notice after a later change; the later notice's link then says it was replaced", async () => {
    const member = await newMember();
    const second = unique('second-home');
    const third = unique('third-home');
    await ask(member.call, second);
    await press(await confirmLink(second));
    const later = await renewed(member);
    expect((await later.call('POST', '/api/me/email-change', { newEmail: third, password: PASSWORD })).status).toBe(
      202,
    );
    await press(await confirmLink(third));
    const firstRevert = await linkIn(member.email, T.changedSubject, 'email/revert');
    const laterRevert = await linkIn(second, T.changedSubject, 'email/revert');
    expect((await browser()(`${base}/oidc/email/revert`, form({ token: tokenOf(firstRevert) }))).status).toBe(303);
    const [row] = (await database.pool.query('select email from accounts where account_id = $1', [member.accountId]))
      .rows;
    expect(row.email).toBe(member.email);
    expect(await press(laterRevert)).toMatchObject({ status: 410, html: expect.stringContaining(T.revertReplaced) });
    await mailsTo(third, T.removedSubject);
  });

  it('refuses a restore link past its 7 days', async () => {
    const member = await newMember();
    const newEmail = unique('kept');
    await ask(member.call, newEmail);
    await press(await confirmLink(newEmail));
    const revertLink = await linkIn(member.email, T.changedSubject, 'email/revert');
    await database.pool.query(
      `update email_changes set revert_expires_at = now() - interval '1 second' where account_id = $1`,
      [member.accountId],
    );
    expect(await press(revertLink)).toMatchObject({ status: 410, html: expect.stringContaining(T.revertExpired) });
    expect((await statusOf((await renewed(member)).call)).email).toBe(newEmail);
  });
});

describe('verified addresses and what support sees', () => {
  it('carries an unverified address as email_verified false, in the directory, and shows support a pending change', async () => {
    const member = await newMember({ emailVerified: false });
    expect(decodeJwt(member.tokens.id_token).email_verified).toBe(false);
    expect(await statusOf(member.call)).toMatchObject({ emailVerified: false });
    const newEmail = unique('pending');
    await ask(member.call, newEmail);

    const admin = await adminCaller();
    const found = await admin('GET', `/api/admin/members?q=${encodeURIComponent(member.email)}&limit=5`);
    expect(found.body.data).toEqual([expect.objectContaining({ email: member.email, emailVerified: false })]);
    const details = (await admin('GET', `/api/admin/members/${member.accountId}`)).body.data[0] as AdminMemberDetails;
    expect(details.pendingEmailChange).toMatchObject({ newEmail });

    // Opening the link shows the member owns the new address.
    await press(await confirmLink(newEmail));
    const after = (await admin('GET', `/api/admin/members/${member.accountId}`)).body.data[0] as AdminMemberDetails;
    expect(after.member).toMatchObject({ email: newEmail, emailVerified: true });
    expect(after.pendingEmailChange).toBeNull();
  });
});
