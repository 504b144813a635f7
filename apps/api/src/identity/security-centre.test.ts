import { randomBytes } from 'node:crypto';
import {
  SECURITY_MESSAGES,
  type DeviceSession,
  type Page,
  type SecurityActivity,
  type SecurityEventName,
} from '@ums/contracts';
import { describe, expect, it } from 'vitest';
import { dpopKey } from '@ums/testkit/dpop';
import { attemptSignIn, browser, dpopHeaders, refresh, signIn, signOut, type Browser } from '@ums/testkit/oidc-browser';
import { providerApp } from '../../test/oidc-client.js';
import { smtpInbox } from '../../test/smtp-inbox.js';
import { ALERT_SUBJECTS, MAIL_GREETING } from '../mail/alerts.js';
import { createAccountService } from './accounts.service.js';

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const PASSWORD = 'Security-Pass-42!';

const inbox = await smtpInbox();

const server = await providerApp(
  { SMTP_URL: inbox.url, MAIL_FROM: 'UMS Health <security@example.com>' },
  { deliverMail: true },
);
const { base, database } = server;
const accounts = createAccountService({ db: database.db });

async function member() {
  const email = `centre-${randomBytes(4).toString('hex')}@example.com`;
  const account = await accounts.add({ email, password: PASSWORD, firstName: 'Dana' });
  return { email, accountId: account.accountId };
}

/** Signs in from a browser of its own with this User-Agent (a device). */
const signInWith = (email: string, userAgent: string, go: Browser = browser({ 'user-agent': userAgent })) =>
  signIn(base, email, PASSWORD, { go });

const api = async <T>(path: string, token: string, init: RequestInit = {}) => {
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers: {
      ...dpopHeaders(token, init.method ?? 'GET', `${base}${path}`),
      'content-type': 'application/json',
      'user-agent': CHROME_ON_WINDOWS,
    },
  });
  return { status: response.status, body: (await response.json()) as { data: T; message: string; page?: Page } };
};
const sessions = (token: string) => api<DeviceSession[]>('/api/sessions', token);
const activity = async (token: string) => (await api<SecurityActivity[]>('/api/activity', token)).body.data;
const events = async (token: string) => (await activity(token)).map((entry) => entry.event);
const mailTo = inbox.to;

describe('devices (GET /api/sessions)', () => {
  it('lists each signed-in browser with its browser, system and address, the calling one first as current', async () => {
    const { email } = await member();
    const laptop = await signInWith(email, CHROME_ON_WINDOWS);
    await signInWith(email, FIREFOX_ON_LINUX);
    const { status, body } = await sessions(laptop.access_token);
    expect(status).toBe(200);
    expect(body.data).toHaveLength(2);
    expect(body.data[0]).toMatchObject({
      current: true,
      browser: 'Chrome 131',
      os: 'Windows 10',
      ipAddress: '127.0.0.1',
    });
    expect(body.data[1]).toMatchObject({ current: false, browser: 'Firefox 133', os: 'Linux' });
    for (const session of body.data) {
      expect(Date.parse(session.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(session.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt));
      expect(session.id).toMatch(/^[A-Za-z0-9_-]+$/);
    }
    // The public id is never the session cookie's value.
    const cookie = laptop.go.setCookies
      .find((c) => c.startsWith('_session='))!
      .split(';')[0]!
      .split('=')[1];
    expect(body.data.map((s) => s.id)).not.toContain(cookie);
  });
});

describe('a refresh is use of its session', () => {
  it("moves the session's last use in the devices list, and no other session's", async () => {
    const { email } = await member();
    const laptop = await signInWith(email, CHROME_ON_WINDOWS);
    const phone = await signInWith(email, SAFARI_ON_IPHONE);
    const lastUse = async () =>
      Object.fromEntries(
        (await sessions(laptop.access_token)).body.data.map((s) => [s.browser, Date.parse(s.lastActiveAt)]),
      );
    const before = await lastUse();
    const refreshed = await refresh(base, phone.refresh_token);
    expect(refreshed.status).toBe(200);
    expect((await lastUse())['Safari 17']).toBeGreaterThan(before['Safari 17']!);
    expect((await lastUse())['Chrome 131']).toBe(before['Chrome 131']);
  });

  it('a refused refresh, with a proof of another key than its token is bound to, does not move it', async () => {
    const { email } = await member();
    const laptop = await signInWith(email, CHROME_ON_WINDOWS);
    const lastUse = async () => Date.parse((await sessions(laptop.access_token)).body.data[0]!.lastActiveAt);
    const before = await lastUse();
    const refused = await refresh(base, laptop.refresh_token, await dpopKey());
    expect(refused.body.error).toBe('invalid_grant');
    expect(await lastUse()).toBe(before);
    // The token was not used up either: its own browser's next refresh works, and moves it.
    expect((await refresh(base, laptop.refresh_token)).status).toBe(200);
    expect(await lastUse()).toBeGreaterThan(before);
  });
});

describe('ending a session (DELETE /api/sessions/{id})', () => {
  it("ends the other browser's session: its access token is refused at once, its refresh token and cookie stop working", async () => {
    const { email } = await member();
    const laptop = await signInWith(email, CHROME_ON_WINDOWS);
    const phone = await signInWith(email, SAFARI_ON_IPHONE);
    expect((await api('/api/userdetails/', phone.access_token)).status).toBe(200);
    const other = (await sessions(laptop.access_token)).body.data.find((s) => !s.current)!;
    expect(other.browser).toBe('Safari 17');

    const ended = await api(`/api/sessions/${other.id}`, laptop.access_token, { method: 'DELETE' });
    expect(ended).toEqual({ status: 200, body: { isError: false, message: SECURITY_MESSAGES.sessionEnded, data: [] } });
    // Every process hears the revocation through PostgreSQL's NOTIFY, this one too: within milliseconds.
    await expect
      .poll(async () => (await api('/api/userdetails/', phone.access_token)).status, { timeout: 1000 })
      .toBe(401);
    const refused = await api('/api/userdetails/', phone.access_token);
    expect(refused.body.message).toBe('Your session has ended. Please sign in again.');
    expect((await refresh(base, phone.refresh_token)).status).toBe(400);
    expect((await sessions(laptop.access_token)).body.data.map((s) => s.current)).toEqual([true]);
    // The browser that ended it goes on.
    expect((await api('/api/userdetails/', laptop.access_token)).status).toBe(200);
    expect((await refresh(base, laptop.refresh_token)).status).toBe(200);
  });

  it("answers 404 for another member's session id (nothing ends) and 409 for the calling session", async () => {
    const owner = await member();
    const stranger = await member();
    const ownerTokens = await signInWith(owner.email, CHROME_ON_WINDOWS);
    const strangerTokens = await signInWith(stranger.email, FIREFOX_ON_LINUX);
    const [ownerSession] = (await sessions(ownerTokens.access_token)).body.data;

    const foreign = await api(`/api/sessions/${ownerSession!.id}`, strangerTokens.access_token, { method: 'DELETE' });
    expect(foreign.status).toBe(404);
    expect((await api('/api/userdetails/', ownerTokens.access_token)).status).toBe(200);
    expect((await sessions(ownerTokens.access_token)).body.data).toHaveLength(1);

    const own = await api(`/api/sessions/${ownerSession!.id}`, ownerTokens.access_token, { method: 'DELETE' });
    expect(own.status).toBe(409);
    expect(own.body.message).toBe(SECURITY_MESSAGES.currentSession);
    expect((await api('/api/userdetails/', ownerTokens.access_token)).status).toBe(200);

    const malformed = await api('/api/sessions/not%20an%20id', ownerTokens.access_token, { method: 'DELETE' });
    expect(malformed.status).toBe(400);
  });
});

describe('sign out everywhere else (DELETE /api/sessions)', () => {
  it('ends every other session, keeps the calling one, and mails the member over SMTP', async () => {
    const { email } = await member();
    const desk = await signInWith(email, CHROME_ON_WINDOWS);
    const phone = await signInWith(email, SAFARI_ON_IPHONE);
    const tablet = await signInWith(email, FIREFOX_ON_LINUX);

    const answer = await api('/api/sessions', desk.access_token, { method: 'DELETE' });
    expect(answer.body.message).toBe(SECURITY_MESSAGES.othersEnded);
    for (const gone of [phone, tablet]) {
      await expect
        .poll(async () => (await api('/api/userdetails/', gone.access_token)).status, { timeout: 1000 })
        .toBe(401);
      expect((await refresh(base, gone.refresh_token)).status).toBe(400);
    }
    expect((await sessions(desk.access_token)).body.data).toHaveLength(1);
    expect((await api('/api/userdetails/', desk.access_token)).status).toBe(200);

    await expect
      .poll(() => mailTo(email).map((m) => m.subject), { timeout: 5000 })
      .toContain(ALERT_SUBJECTS['signed-out-everywhere']);
    const mail = mailTo(email).find((m) => m.subject === ALERT_SUBJECTS['signed-out-everywhere'])!;
    expect(mail.from?.text).toBe('"UMS Health" <security@example.com>');
    // The name on the account is not quoted: whoever may have taken the account over could have chosen it.
    expect(mail.text?.split('\n')[0]).toBe(MAIL_GREETING);
    expect(mail.text).not.toContain('Dana');
    expect(mail.text).toContain(`Every device signed in to your UMS Health account (${email}) but one was signed out`);
    expect(mail.text).toContain('Chrome 131 on Windows 10, from the address 127.0.0.1');
    expect(mail.text).toContain(`If it was not you, change your password now (${base}/#login-details)`);
    const ended = (await events(desk.access_token)).filter((e) => e === 'session-ended');
    expect(ended).toHaveLength(2);
  });
});

describe('security activity (GET /api/activity)', () => {
  it('records sign-ins, a failed one, a new device, a password change and a sign-out, newest first', async () => {
    const { email, accountId } = await member();
    const home = browser({ 'user-agent': CHROME_ON_WINDOWS });
    const first = await signInWith(email, CHROME_ON_WINDOWS, home);
    // A wrong password is recorded (never its text); signing out and in again in the same browser is no new device.
    await attemptSignIn(base, email, 'Wrong-Password-1!', { 'user-agent': FIREFOX_ON_LINUX });
    await signOut(base, home, first.id_token);
    const again = await signInWith(email, CHROME_ON_WINDOWS, home);
    await signInWith(email, SAFARI_ON_IPHONE);
    const change = await api('/api/PasswordReset', again.access_token, {
      method: 'POST',
      body: JSON.stringify({ previousPassword: PASSWORD, proposedPassword: 'Changed-Pass-2026!' }),
    });
    expect(change.status).toBe(200);

    const expected: SecurityEventName[] = [
      'password-changed',
      'new-device',
      'sign-in',
      'sign-in',
      'signed-out',
      'sign-in-failed',
      'sign-in',
    ];
    const list = await activity(again.access_token);
    expect(list.map((e) => e.event)).toEqual(expected);
    expect(list.find((e) => e.event === 'sign-in-failed')).toMatchObject({ browser: 'Firefox 133', os: 'Linux' });
    expect(list.find((e) => e.event === 'new-device')).toMatchObject({ browser: 'Safari 17', os: 'iOS 17.5' });
    expect(list[0]).toMatchObject({ browser: 'Chrome 131', os: 'Windows 10', ipAddress: '127.0.0.1' });

    // The new device and the password change were told by mail.
    await expect
      .poll(() => mailTo(email).map((m) => m.subject), { timeout: 5000 })
      .toEqual(expect.arrayContaining([ALERT_SUBJECTS['new-device'], ALERT_SUBJECTS['password-changed']]));
    const changed = mailTo(email).find((m) => m.subject === ALERT_SUBJECTS['password-changed'])!;
    expect(changed.text).toContain(`The password of your UMS Health account (${email}) was changed on`);

    // Another member never sees these.
    const stranger = await member();
    const strangerTokens = await signInWith(stranger.email, FIREFOX_ON_LINUX);
    expect(await events(strangerTokens.access_token)).toEqual(['sign-in']);
    const { rows } = await database.pool.query('select count(*)::int as n from security_events where subject = $1', [
      accountId,
    ]);
    expect(rows[0].n).toBe(list.length);
  });

  it('pages newest first with the paging contract, and refuses a bad cursor', async () => {
    const { email, accountId } = await member();
    const tokens = await signInWith(email, CHROME_ON_WINDOWS);
    await database.pool.query(
      `insert into security_events (subject, event, browser, os, ip_address, at)
       select $1, 'sign-in-failed', 'Chrome 131', 'Windows 10', '10.0.0.' || n, clock_timestamp() - make_interval(mins => n)
       from generate_series(1, 45) n`,
      [accountId],
    );
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const path: string = `/api/activity?limit=20${cursor ? `&cursor=${cursor}` : ''}`;
      const { status, body } = await api<SecurityActivity[]>(path, tokens.access_token);
      expect(status).toBe(200);
      expect(body.page!.total).toBe(46);
      seen.push(...body.data.map((e) => e.at));
      cursor = body.page!.nextCursor;
    }
    expect(seen).toHaveLength(46);
    expect([...seen].sort().reverse()).toEqual(seen);
    const searched = await api<SecurityActivity[]>('/api/activity?limit=5&q=10.0.0.4', tokens.access_token);
    expect(searched.body.data.map((e) => e.ipAddress)).toEqual([
      '10.0.0.4',
      '10.0.0.40',
      '10.0.0.41',
      '10.0.0.42',
      '10.0.0.43',
    ]);
    expect((await api('/api/activity?limit=5&cursor=bogus', tokens.access_token)).status).toBe(400);
    expect((await api('/api/activity?sort=event', tokens.access_token)).status).toBe(400);
  });
});

describe('alert mail', () => {
  it('is retried when the SMTP server refuses it, and the member’s action succeeds meanwhile', async () => {
    const { email } = await member();
    const desk = await signInWith(email, CHROME_ON_WINDOWS);
    await signInWith(email, SAFARI_ON_IPHONE);
    // The phone is a new device: that alert goes first, unhindered.
    await expect
      .poll(() => mailTo(email).map((m) => m.subject), { timeout: 5000 })
      .toEqual([ALERT_SUBJECTS['new-device']]);
    inbox.refuse(1);
    const answer = await api('/api/sessions', desk.access_token, { method: 'DELETE' });
    expect(answer.status).toBe(200);
    const subject = ALERT_SUBJECTS['signed-out-everywhere'];
    const row = async () =>
      (
        await database.pool.query<{ attempts: number; last_error: string | null; sent_at: Date | null }>(
          'select attempts, last_error, sent_at from mail_outbox where recipient = $1 and subject = $2',
          [email, subject],
        )
      ).rows[0];
    await expect.poll(async () => (await row())?.last_error, { timeout: 5000 }).toMatch(/451/);
    expect(mailTo(email).map((m) => m.subject)).not.toContain(subject);
    // The retry is due in 10 s: bring it forward instead of waiting.
    await database.pool.query('update mail_outbox set next_attempt_at = now() where recipient = $1 and subject = $2', [
      email,
      subject,
    ]);
    await expect.poll(() => mailTo(email).map((m) => m.subject), { timeout: 10_000 }).toContain(subject);
    // The SMTP server has the message before the outbox records it as sent: wait for that record.
    await expect.poll(async () => (await row())?.sent_at ?? null, { timeout: 5000 }).not.toBeNull();
    expect(await row()).toMatchObject({ attempts: 2, last_error: null });
  });
});

describe('the devices list, a record and not a gate', () => {
  it('signs the member in when the use cannot be recorded for the devices list, which then shows an unknown browser', async () => {
    const { email, accountId } = await member();
    // Every record of this account's use is refused, whichever statement sends it.
    await database.pool.query(`create function refuse_use() returns trigger language plpgsql as $$
      begin raise exception 'use not recorded'; end $$`);
    await database.pool.query(`create trigger refuse_use before insert or update on session_details for each row
      when (new.account_id::text = '${accountId}') execute function refuse_use()`);
    try {
      const laptop = await signInWith(email, CHROME_ON_WINDOWS);
      const { status, body } = await sessions(laptop.access_token);
      expect(status).toBe(200);
      expect(body.data).toEqual([
        expect.objectContaining({ current: true, browser: 'Unknown browser', os: 'Unknown system' }),
      ]);
    } finally {
      await database.pool.query('drop trigger refuse_use on session_details; drop function refuse_use()');
    }
  });
});
