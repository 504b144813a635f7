import { randomBytes } from 'node:crypto';
import {
  PASSWORD_MISMATCH_MESSAGE,
  PASSWORD_RESET_TEXTS as R,
  PASSWORD_RULES,
  type SecurityActivity,
} from '@ums/contracts';
import { describe, expect, it } from 'vitest';
import {
  attemptSignIn,
  authorizeUrl,
  browser,
  dpopHeaders,
  pkce,
  refresh,
  signIn,
  type Browser,
} from '@ums/testkit/oidc-browser';
import { dpopKey } from '@ums/testkit/dpop';
import { providerApp } from '../../test/oidc-client.js';
import { smtpInbox } from '../../test/smtp-inbox.js';
import { waitFor } from '../../test/wait-for.js';
import { ALERT_SUBJECTS, MAIL_GREETING } from '../mail/alerts.js';
import { createAccountService } from './accounts.service.js';
import { PASSWORD_TESTS_SOURCE } from './pages.js';
import { RESET_LIMITS } from './password-reset.js';

const PASSWORD = 'Forgotten-Pass-42!';
const NEW_PASSWORD = 'Remembered-Pass-43!';

const inbox = await smtpInbox();

// One proxy in front, so each test's requests come from addresses of its own (the limits count per address).
const server = await providerApp({ SMTP_URL: inbox.url, TRUST_PROXY: '1' }, { deliverMail: true });
const { base, database } = server;
const accounts = createAccountService({ db: database.db });

let addressCounter = 0;
/** A fresh client address per caller: 203.0.113.0/24 is set aside for documentation, so it is nobody's. */
const anAddress = () => `203.0.${113 + Math.floor(addressCounter / 250)}.${1 + (addressCounter++ % 250)}`;

async function member() {
  const email = `reset-${randomBytes(4).toString('hex')}@example.com`;
  const account = await accounts.add({ email, password: PASSWORD, firstName: 'Robin' });
  return { email, accountId: account.accountId };
}

const mailTo = inbox.to;
/** Resolves when the work after every answered request (the account's lookup, the link and its mail) is done. */
const settled = () => server.state.app.passwordResetsSettled!();
/** Mails ever queued for the address: sent, being sent or waiting. */
const queuedFor = async (email: string) =>
  (
    await database.db.$client.query<{ n: number }>('select count(*)::int as n from mail_outbox where recipient = $1', [
      email,
    ])
  ).rows[0]!.n;

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
/** Asks for a link as a browser would, from the given address. */
const ask = (email: string, address = anAddress(), go: Browser = browser({ 'x-forwarded-for': address })) =>
  go(`${base}/oidc/password/forgot`, form({ email }));
const textOf = async (response: Response) => ({ status: response.status, html: await response.text() });

/** The link in the newest reset mail to this address. */
async function linkMailedTo(email: string, count = 1): Promise<string> {
  const mails = await waitFor(
    () => mailTo(email).filter((mail) => mail.subject === R.mailSubject),
    (list) => list.length >= count,
  );
  expect(mails).toHaveLength(count);
  const link = /(http\S+\/oidc\/password\/reset\?token=\S+)/.exec(mails.at(-1)!.text ?? '')?.[1];
  expect(link).toBeDefined();
  return link!;
}

const setPassword = (go: Browser, link: string, password: string, confirm = password) =>
  go(`${base}/oidc/password/reset`, form({ token: new URL(link).searchParams.get('token')!, password, confirm }));

async function activityOf(email: string, password: string) {
  const { access_token } = await signIn(base, email, password);
  const response = await fetch(`${base}/api/activity`, {
    headers: dpopHeaders(access_token, 'GET', `${base}/api/activity`),
  });
  return ((await response.json()) as { data: SecurityActivity[] }).data.map((entry) => entry.event);
}

describe('asking for a link', () => {
  it("is offered on the sign-in page as 'Forgot your password?', with a way back to that sign-in", async () => {
    const go = browser({ 'x-forwarded-for': anAddress() });
    const first = await go(authorizeUrl(base, pkce().challenge));
    const signInPath = first.headers.get('location')!;
    const page = await (await go(new URL(signInPath, base).toString())).text();
    const uid = signInPath.split('/').pop()!;
    expect(page).toContain(`<a href="/oidc/password/forgot?interaction=${uid}">${R.link}</a>`);

    const forgot = await textOf(await go(`${base}/oidc/password/forgot?interaction=${uid}`));
    expect(forgot.status).toBe(200);
    expect(forgot.html).toContain(`<h1>${R.title}</h1>`);
    expect(forgot.html).toContain(`<a href="/oidc/interaction/${uid}">${R.backToSignIn}</a>`);
    expect(forgot.html).toContain(`action="/oidc/password/forgot?interaction=${uid}"`);
  });

  it('answers a known and an unknown address with the same page, and mails only the known one', async () => {
    const { email } = await member();
    const unknown = `nobody-${randomBytes(4).toString('hex')}@example.com`;
    const known = await textOf(await ask(email));
    const stranger = await textOf(await ask(unknown));
    expect(known.status).toBe(200);
    expect(stranger).toEqual(known);
    expect(known.html).toContain(R.sent);
    expect(known.html).toContain(R.sentDetail);

    const link = await linkMailedTo(email);
    expect(link.startsWith(`${base}/oidc/password/reset?token=`)).toBe(true);
    const mail = mailTo(email)[0]!;
    expect(mail.text?.split('\n')[0]).toBe(MAIL_GREETING);
    expect(mail.text).not.toContain('Robin');
    expect(mail.text).toContain(`Someone asked to reset the password of your UMS Health account (${email})`);
    expect(mail.text).toContain('It works once, within 30 minutes:');
    expect(mail.text).toContain('If you did not ask, ignore this message: your password stays as it is');
    // The link's token is stored only as a hash.
    const token = new URL(link).searchParams.get('token')!;
    const { rows } = await database.db.$client.query('select token_hash from password_resets');
    expect(rows.map((row) => row.token_hash)).not.toContain(token);
    // Once every request answered has been dealt with, nothing is queued for the unknown address, so nothing comes.
    await settled();
    expect(await queuedFor(unknown)).toBe(0);
    expect(mailTo(unknown)).toHaveLength(0);
  });

  it('answers at once, before the work for a known address is done (its timing says nothing of the account)', async () => {
    const { email } = await member();
    const holder = await database.db.$client.connect();
    try {
      // Hold every new link back: an answer that waited for the account's link could not come.
      await holder.query('begin');
      await holder.query('lock table password_resets in exclusive mode');
      const started = Date.now();
      const answer = await textOf(await ask(email));
      expect(answer.status).toBe(200);
      expect(answer.html).toContain(R.sent);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(mailTo(email)).toHaveLength(0);
    } finally {
      await holder.query('commit');
      holder.release();
    }
    await linkMailedTo(email);
  });

  it('refuses an address that is not an email, keeping what was typed', async () => {
    const page = await textOf(await ask('not-an-email<b>'));
    expect(page.status).toBe(400);
    expect(page.html).toContain(R.badEmail);
    expect(page.html).toContain('value="not-an-email&lt;b&gt;"');
  });

  it(`tells an address asking more than ${RESET_LIMITS.address.max} times in 15 minutes to wait, counting concurrent requests exactly`, async () => {
    const address = anAddress();
    const answers = await Promise.all(
      Array.from({ length: RESET_LIMITS.address.max + 5 }, (_, i) =>
        ask(`flood-${i}@example.com`, address).then(textOf),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(RESET_LIMITS.address.max);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.html).toContain(R.tooMany);
    // Another address is not affected.
    expect((await ask('someone@example.com')).status).toBe(200);
  });

  it(`mails one account at most ${RESET_LIMITS.account.max} links an hour, whoever asks, while every answer stays the same`, async () => {
    const { email, accountId } = await member();
    const answers = await Promise.all(Array.from({ length: 8 }, () => ask(email).then(textOf)));
    expect(new Set(answers.map((a) => `${a.status} ${a.html}`)).size).toBe(1);
    expect(answers[0]!.status).toBe(200);
    await linkMailedTo(email, RESET_LIMITS.account.max);
    // Every request dealt with: the outbox holds every mail that will ever go to the address.
    await settled();
    expect(await queuedFor(email)).toBe(RESET_LIMITS.account.max);
    expect(mailTo(email)).toHaveLength(RESET_LIMITS.account.max);
    const { rows } = await database.db.$client.query(
      'select count(*)::int as n from password_resets where account_id = $1',
      [accountId],
    );
    expect(rows[0].n).toBe(RESET_LIMITS.account.max);
  });
});

describe('setting a new password through the link', () => {
  it("opens a page with the policy's helper text and its rules as a checklist, for the link's account", async () => {
    const { email } = await member();
    await ask(email);
    const page = await textOf(await browser()(await linkMailedTo(email)));
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<h1>${R.resetTitle}</h1><p>for ${email}</p>`);
    expect(page.html).toContain(
      'Password must be 8-256 characters with at least one lowercase letter, uppercase letter, number, and special character.',
    );
    for (const rule of PASSWORD_RULES) expect(page.html).toContain(`<li data-rule="${rule.id}">`);
    expect(page.html).toContain('<script src="/oidc-assets/password-checklist.js" defer></script>');
    const script = await fetch(`${base}/oidc-assets/password-checklist.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it("ticks the rules in the browser exactly as the server's policy judges them", () => {
    const tests = new Function(`${PASSWORD_TESTS_SOURCE}\nreturn tests;`)() as Record<string, (p: string) => boolean>;
    const samples = [
      '',
      'a',
      'Aa1!',
      'aaaa1111!',
      'AAAA1111!',
      'Aaaaaaaa!',
      'Aaaa1111',
      'Aa1!aaa',
      'Aa1 bbbb',
      'Aa1\\bbbb',
      'Aa1"bbbb',
      'Ää1!ööööö',
      'Aa1!😀😀😀',
      'Aa1!xyxy'.repeat(32),
      `${'Aa1!xyxy'.repeat(32)}z`,
      'Ab1!'.repeat(64),
    ];
    for (const password of samples) {
      for (const rule of PASSWORD_RULES)
        expect([rule.id, password, tests[rule.id]!(password)]).toEqual([rule.id, password, rule.test(password)]);
    }
  });

  it("refuses a password against the policy, or not confirmed, with the rules' own words, and changes nothing", async () => {
    const { email } = await member();
    await ask(email);
    const link = await linkMailedTo(email);
    const weak = await textOf(await setPassword(browser(), link, 'short'));
    expect(weak.status).toBe(400);
    expect(weak.html).toContain('Password must be at least 8 characters long. Password must contain at least one');
    const mismatch = await textOf(await setPassword(browser(), link, NEW_PASSWORD, `${NEW_PASSWORD}x`));
    expect(mismatch.status).toBe(400);
    expect(mismatch.html).toContain(PASSWORD_MISMATCH_MESSAGE);
    // The old password still works and the link still opens.
    await signIn(base, email, PASSWORD);
    expect((await browser()(link)).status).toBe(200);
  });

  it('ends every session, voids every link, records the change, mails the alert and signs this browser in', async () => {
    const { email, accountId } = await member();
    const laptop = await signIn(base, email, PASSWORD);
    const phone = await signIn(base, email, PASSWORD);
    await ask(email);
    const older = await linkMailedTo(email);
    await ask(email);
    const link = await linkMailedTo(email, 2);

    const go = browser({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' });
    const done = await setPassword(go, link, NEW_PASSWORD);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${base}/`);

    // Both old sessions end: access tokens refused on every process within moments, refresh tokens dead.
    for (const session of [laptop, phone]) {
      const status = await waitFor(
        async () =>
          (
            await fetch(`${base}/api/userdetails/`, {
              headers: dpopHeaders(session.access_token, 'GET', `${base}/api/userdetails/`),
            })
          ).status,
        (s) => s === 401,
      );
      expect(status).toBe(401);
      expect((await refresh(base, session.refresh_token)).status).toBe(400);
    }
    // The link works once, and the older one stopped working with it.
    for (const used of [link, older]) {
      const page = await textOf(await browser()(used));
      expect(page.status).toBe(410);
      expect(page.html).toContain(R.invalid);
      expect(page.html).toContain(`<a href="/oidc/password/forgot">${R.askAgain}</a>`);
    }
    expect((await textOf(await setPassword(browser(), link, 'Another-Pass-44!'))).status).toBe(410);

    // This browser is signed in at the provider's next prompt, without a password.
    const { verifier, challenge } = pkce();
    let response = await go(authorizeUrl(base, challenge));
    let code: string | null = null;
    for (let hops = 0; hops < 6 && !code; hops++) {
      // Never the sign-in page (a 200): every step redirects onwards.
      expect([response.status, response.headers.has('location')]).toEqual([303, true]);
      const url = new URL(response.headers.get('location')!, base);
      code = url.pathname === '/auth/callback' ? url.searchParams.get('code') : null;
      if (!code) response = await go(url.toString());
    }
    expect(code).toBeTruthy();
    // The web client's token request carries a DPoP proof of the browser's key (issue 33).
    const key = await dpopKey();
    const tokens = (await (
      await fetch(`${base}/oidc/token`, {
        ...form({
          client_id: 'ums-web',
          grant_type: 'authorization_code',
          code: code!,
          redirect_uri: `${base}/auth/callback`,
          code_verifier: verifier,
        }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: key.proof('POST', `${base}/oidc/token`) },
      })
    ).json()) as { access_token: string };
    const me = await fetch(`${base}/api/userdetails/`, {
      headers: {
        authorization: `DPoP ${tokens.access_token}`,
        dpop: key.proof('GET', `${base}/api/userdetails/`, tokens.access_token),
      },
    });
    expect(me.status).toBe(200);
    // The ticket was spent.
    const { rows } = await database.db.$client.query(
      'select count(*)::int as n from password_resets where account_id = $1 and sign_in_hash is not null',
      [accountId],
    );
    expect(rows[0].n).toBe(0);

    // The old password is wrong now; the alert went out; the activity says what happened.
    expect((await attemptSignIn(base, email, PASSWORD)).status).toBe(401);
    const alert = await waitFor(
      () => mailTo(email).find((mail) => mail.subject === ALERT_SUBJECTS['password-changed']),
      Boolean,
    );
    expect(alert?.text).toContain('using Firefox 133 on Linux');
    // (Each scripted browser is a device the account has not seen: those entries are set aside here.)
    const events = (await activityOf(email, NEW_PASSWORD)).filter((event) => event !== 'new-device');
    expect(events.slice(0, 4)).toEqual(['sign-in', 'sign-in-failed', 'sign-in', 'password-changed']);
  });

  it('refuses a link past its 30 minutes, and a token that was never issued', async () => {
    const { email, accountId } = await member();
    await ask(email);
    const link = await linkMailedTo(email);
    await database.db.$client.query(
      "update password_resets set expires_at = now() - interval '1 second' where account_id = $1",
      [accountId],
    );
    expect((await browser()(link)).status).toBe(410);
    expect((await textOf(await setPassword(browser(), link, NEW_PASSWORD))).html).toContain(R.invalid);
    expect((await browser()(`${base}/oidc/password/reset?token=${'A'.repeat(43)}`)).status).toBe(410);
    expect((await browser()(`${base}/oidc/password/reset`)).status).toBe(410);
    await signIn(base, email, PASSWORD);
  });

  it('stops working when the member changes the password in Login Details', async () => {
    const { email } = await member();
    await ask(email);
    const link = await linkMailedTo(email);
    const { access_token } = await signIn(base, email, PASSWORD);
    const changed = await fetch(`${base}/api/PasswordReset`, {
      method: 'POST',
      headers: {
        ...dpopHeaders(access_token, 'POST', `${base}/api/PasswordReset`),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ previousPassword: PASSWORD, proposedPassword: NEW_PASSWORD }),
    });
    expect(changed.status).toBe(200);
    expect((await browser()(link)).status).toBe(410);
  });
});
