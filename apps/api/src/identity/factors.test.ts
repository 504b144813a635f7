import { randomBytes } from 'node:crypto';
import {
  FACTOR_MESSAGES,
  RECOVERY_CODE_COUNT,
  SECOND_FACTOR_TEXTS,
  SECURITY_EVENT_LABELS,
  type SecurityFactors,
} from '@ums/contracts';
import { dpopKey } from '@ums/testkit/dpop';
import {
  attemptSignIn,
  authorizeUrl,
  browser,
  finishSignIn,
  giveSecondFactor,
  pkce,
  refresh,
  signIn,
} from '@ums/testkit/oidc-browser';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { anotherProcess, apiCaller, providerApp } from '../../test/oidc-client.js';
import { waitFor } from '../../test/wait-for.js';
import { ALERT_SUBJECTS } from '../mail/alerts.js';
import { createAccountService } from './accounts.service.js';

const server = await providerApp();
const { base, database } = server;
const accounts = createAccountService({ db: database.db });
const PASSWORD = 'Two-Steps-2026!';

// A second API process on the same database, as behind a load balancer.
const otherBase = await anotherProcess(server);

async function newMember() {
  const email = `two-steps-${randomBytes(4).toString('hex')}@example.com`;
  await accounts.add({ email, password: PASSWORD });
  const key = await dpopKey();
  const tokens = await signIn(base, email, PASSWORD, { dpop: key });
  /** Calls the API as this member, with a DPoP proof per request. */
  const call = apiCaller(base, tokens.access_token);
  return { email, tokens, key, call };
}

/** The authenticator app a person would set up with this key (RFC 6238: 6 digits, 30 s). */
const authenticatorApp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });

/** The authenticator app's code `offset` steps from now. */
const codeFor = (secret: string, offset = 0) =>
  authenticatorApp(secret).generate({ timestamp: Date.now() + offset * 30_000 });

/**
 * The code of the first step among this one, the next and the last (all three accepted) that `spent` does not hold,
 * which then holds it: each step's code works once, and a test crossing a 30-second boundary must not give a code of
 * a step it spent in the step before.
 */
function unspentCode(secret: string, spent: Set<number>) {
  const now = Math.floor(Date.now() / 30_000);
  const step = [now, now + 1, now - 1].find((candidate) => !spent.has(candidate))!;
  spent.add(step);
  return authenticatorApp(secret).generate({ timestamp: step * 30_000 });
}

/** Sets up the authenticator app: the key, the recovery codes the first factor brings, and the step it spent. */
async function withAuthenticator(member: Awaited<ReturnType<typeof newMember>>) {
  const setup = await member.call('POST', '/api/security/totp/setup');
  const { secret } = setup.body.data[0] as { secret: string; otpauthUrl: string };
  const spent = new Set<number>();
  const confirmed = await member.call('POST', '/api/security/totp', { code: unspentCode(secret, spent) });
  expect(confirmed.status).toBe(200);
  return { secret, spent, recoveryCodes: (confirmed.body.data[0] as { recoveryCodes: string[] }).recoveryCodes };
}

/** Signs in up to the second step: the page the password leads to, and the browser holding that interaction. */
async function passwordOnly(email: string) {
  const go = browser();
  const page = await attemptSignIn(base, email, PASSWORD, {}, go, pkce().challenge);
  return { go, page };
}

async function mailSubjects(email: string): Promise<string[]> {
  const { rows } = await database.pool.query<{ subject: string }>(
    'select subject from mail_outbox where recipient = $1 order by id',
    [email],
  );
  return rows.map((r) => r.subject);
}

describe('the authenticator app (TOTP)', () => {
  it('is set up with a key shown once and a first code, and brings ten recovery codes; tokens say how the member signed in', async () => {
    const member = await newMember();
    expect(decodeJwt(member.tokens.access_token)).toMatchObject({ amr: ['pwd'], auth_time: expect.any(Number) });
    expect(decodeJwt(member.tokens.id_token)).toMatchObject({ amr: ['pwd'] });
    const none: SecurityFactors = {
      passkeys: [],
      totp: { enabled: false, createdAt: null },
      recoveryCodes: { remaining: 0 },
    };
    expect((await member.call('GET', '/api/security/factors')).body.data).toEqual([none]);

    const setup = await member.call('POST', '/api/security/totp/setup');
    expect(setup.status).toBe(200);
    expect(setup.body.message).toBe(FACTOR_MESSAGES.totpSetupStarted);
    const { secret, otpauthUrl } = setup.body.data[0] as { secret: string; otpauthUrl: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(
      `otpauth://totp/UMS:${encodeURIComponent(member.email)}?issuer=UMS&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );

    const wrong = await member.call('POST', '/api/security/totp', { code: codeFor(secret, 5) });
    expect(wrong).toMatchObject({ status: 400, body: { message: FACTOR_MESSAGES.wrongCode } });
    const malformed = await member.call('POST', '/api/security/totp', { code: '12ab' });
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body)).toContain(FACTOR_MESSAGES.malformedCode);

    const confirmed = await member.call('POST', '/api/security/totp', { code: codeFor(secret) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.message).toBe(FACTOR_MESSAGES.totpEnabled);
    const { recoveryCodes } = confirmed.body.data[0] as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const again = await member.call('POST', '/api/security/totp/setup');
    expect(again).toMatchObject({ status: 409, body: { message: FACTOR_MESSAGES.totpAlreadyEnabled } });
    const factors = (await member.call('GET', '/api/security/factors')).body.data[0] as SecurityFactors;
    expect(factors.totp.enabled).toBe(true);
    expect(factors.recoveryCodes.remaining).toBe(RECOVERY_CODE_COUNT);

    // The key is stored sealed: neither it nor its base32 text is in the database.
    const { rows } = await database.pool.query<{ text: string }>(
      `select string_agg(t::text, ' ') as text from totp_factors t`,
    );
    expect(rows[0]!.text).not.toContain(secret);
    expect(await mailSubjects(member.email)).toContain(ALERT_SUBJECTS['factor-added']);
  });

  it('asks for a code after the password, takes each code once on any process, and issues tokens that say mfa', async () => {
    const member = await newMember();
    const { secret } = await withAuthenticator(member);

    const { go, page } = await passwordOnly(member.email);
    expect(page.status).toBe(200);
    const html = await page.clone().text();
    expect(html).toContain(`<h1>${SECOND_FACTOR_TEXTS.title}</h1>`);
    expect(html).toContain(`<label for="code">${SECOND_FACTOR_TEXTS.codeLabel}</label>`);
    expect(html).toContain(SECOND_FACTOR_TEXTS.useRecoveryCode);

    const wrong = await giveSecondFactor(base, go, page, { code: codeFor(secret, 4) });
    expect(wrong.status).toBe(401);
    expect(await wrong.clone().text()).toContain(SECOND_FACTOR_TEXTS.wrongCode);

    // The code of the next step (the one of this step set the app up): accepted, once.
    const next = codeFor(secret, 1);
    const tokens = await signIn(base, member.email, PASSWORD, { secondFactor: { code: next } });
    expect(decodeJwt(tokens.access_token).amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(decodeJwt(tokens.id_token).amr).toEqual(['pwd', 'otp', 'mfa']);
    // The replay goes to the other process.
    const replay = await passwordOnly(member.email);
    const refused = await giveSecondFactor(otherBase, replay.go, replay.page, { code: next });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain(SECOND_FACTOR_TEXTS.wrongCode);
  });

  it('counts second-factor attempts like passwords: of 12 wrong codes sent at once to two processes, 5 are checked', async () => {
    const member = await newMember();
    const { secret } = await withAuthenticator(member);
    const { go, page } = await passwordOnly(member.email);
    const html = await page.text();
    const action = /action="([^"]+)"/.exec(html)![1]!;
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        go(new URL(action, i % 2 ? otherBase : base).toString(), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ code: codeFor(secret, 6 + i) }).toString(),
        }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    // The right code now is refused too, saying why: the limit holds for 15 minutes.
    const limited = await giveSecondFactor(base, go, await (await passwordOnly(member.email)).page, {
      code: codeFor(secret, 1),
    });
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain(SECOND_FACTOR_TEXTS.tooMany);
  });

  it('is turned off with DELETE; with no second factor left, the recovery codes go and the password alone signs in', async () => {
    const member = await newMember();
    await withAuthenticator(member);
    expect((await member.call('DELETE', '/api/security/totp')).body.message).toBe(FACTOR_MESSAGES.totpRemoved);
    const factors = (await member.call('GET', '/api/security/factors')).body.data[0] as SecurityFactors;
    expect(factors).toMatchObject({ totp: { enabled: false }, recoveryCodes: { remaining: 0 } });
    expect(await member.call('DELETE', '/api/security/totp')).toMatchObject({
      status: 404,
      body: { message: FACTOR_MESSAGES.totpNotEnabled },
    });
    expect(await member.call('POST', '/api/security/recovery-codes')).toMatchObject({
      status: 409,
      body: { message: FACTOR_MESSAGES.codesNeedAFactor },
    });
    expect(decodeJwt((await signIn(base, member.email, PASSWORD)).access_token).amr).toEqual(['pwd']);
    expect(await mailSubjects(member.email)).toContain(ALERT_SUBJECTS['factor-removed']);
  });
});

describe('recovery codes', () => {
  it('sign in once each, are told by mail and activity, and a new set voids the old one', async () => {
    const member = await newMember();
    const { recoveryCodes } = await withAuthenticator(member);

    const { go, page } = await passwordOnly(member.email);
    const switched = await go(new URL(/href="([^"]+with=recovery)"/.exec(await page.text())![1]!, base).toString());
    const form = await switched.clone().text();
    expect(form).toContain(`<label for="recovery">${SECOND_FACTOR_TEXTS.recoveryLabel}</label>`);
    const wrong = await giveSecondFactor(base, go, switched, { recovery: 'aaaaa-bbbbb' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(SECOND_FACTOR_TEXTS.wrongRecoveryCode);

    const typed = recoveryCodes[0]!.toUpperCase().replace('-', ' ');
    const tokens = await signIn(base, member.email, PASSWORD, { secondFactor: { recovery: typed } });
    expect(decodeJwt(tokens.access_token).amr).toEqual(['pwd', 'otp', 'mfa']);
    const reused = await passwordOnly(member.email);
    const refused = await giveSecondFactor(base, reused.go, reused.page, { recovery: recoveryCodes[0]! });
    expect(refused.status).toBe(401);
    expect(await mailSubjects(member.email)).toContain(ALERT_SUBJECTS['recovery-code-used']);
    const activity = (await member.call('GET', '/api/activity')).body.data as { event: string }[];
    expect(activity.map((a) => a.event)).toEqual(
      expect.arrayContaining(['factor-added', 'recovery-code-used'] satisfies (keyof typeof SECURITY_EVENT_LABELS)[]),
    );
    expect(((await member.call('GET', '/api/security/factors')).body.data[0] as SecurityFactors).recoveryCodes).toEqual(
      {
        remaining: RECOVERY_CODE_COUNT - 1,
      },
    );

    const renewed = await member.call('POST', '/api/security/recovery-codes');
    expect(renewed.body.message).toBe(FACTOR_MESSAGES.codesRegenerated);
    const fresh = (renewed.body.data[0] as { recoveryCodes: string[] }).recoveryCodes;
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
    const old = await passwordOnly(member.email);
    expect((await giveSecondFactor(base, old.go, old.page, { recovery: recoveryCodes[1]! })).status).toBe(401);
    await signIn(base, member.email, PASSWORD, { secondFactor: { recovery: fresh[0]! } });
    expect(await mailSubjects(member.email)).toContain(ALERT_SUBJECTS['recovery-codes-regenerated']);
  });
});

describe('administrators and a member who lost their second factor', () => {
  it("see the member's sign-in methods as kinds and counts, and reset them: audited, sessions ended, the member told", async () => {
    const member = await newMember();
    await withAuthenticator(member);
    const adminEmail = `two-steps-admin-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.add({ email: adminEmail, password: PASSWORD, admin: true });
    const key = await dpopKey();
    const adminTokens = await signIn(base, adminEmail, PASSWORD, { dpop: key });
    const asAdmin = apiCaller(base, adminTokens.access_token);
    const subject = decodeJwt(member.tokens.access_token).sub!;
    const before = (await asAdmin('GET', `/api/admin/members/${subject}`)).body.data[0] as {
      signInMethods: unknown;
    };
    expect(before.signInMethods).toEqual({ authenticatorApp: true, passkeys: 0, recoveryCodes: RECOVERY_CODE_COUNT });
    expect(JSON.stringify(before)).not.toMatch(/secret|codeHash|public_?key/i);

    const reset = await asAdmin('POST', `/api/admin/members/${subject}/reset-sign-in-methods`);
    expect(reset).toMatchObject({
      status: 200,
      body: { message: "The member's sign-in methods were reset and their sessions ended" },
    });
    const after = (await asAdmin('GET', `/api/admin/members/${subject}`)).body.data[0] as { signInMethods: unknown };
    expect(after.signInMethods).toEqual({ authenticatorApp: false, passkeys: 0, recoveryCodes: 0 });
    // The member's tokens stop working on every process within a second (the revocation travels by NOTIFY).
    expect(
      await waitFor(
        async () => (await member.call('GET', '/api/security/factors')).status,
        (status) => status === 401,
      ),
    ).toBe(401);
    expect(decodeJwt((await signIn(base, member.email, PASSWORD)).access_token).amr).toEqual(['pwd']);
    expect(await mailSubjects(member.email)).toContain(ALERT_SUBJECTS['sign-in-methods-reset']);
    const { rows } = await database.pool.query<{ before: unknown; after: unknown }>(
      `select before, after from audit_entries where action = 'member-sign-in-methods-reset' and entity_id = $1`,
      [subject],
    );
    expect(rows).toEqual([
      {
        before: { authenticatorApp: true, passkeys: 0, recoveryCodes: RECOVERY_CODE_COUNT },
        after: { authenticatorApp: false, passkeys: 0, recoveryCodes: 0 },
      },
    ]);
  });
});

describe('step-up (RFC 9470) with the embedded provider', () => {
  it('refuses a sensitive action once the sign-in is over 5 minutes old; signing in again with max_age asks for both factors and lets it through', async () => {
    const member = await newMember();
    const { secret, spent } = await withAuthenticator(member);
    const go = browser();
    const key = await dpopKey();
    const tokens = await signIn(base, member.email, PASSWORD, {
      go,
      dpop: key,
      secondFactor: { code: unspentCode(secret, spent) },
    });
    const exportWith = async (token: string) => {
      const url = `${base}/api/me/export`;
      return fetch(url, { headers: { authorization: `DPoP ${token}`, dpop: key.proof('GET', url, token) } });
    };
    expect((await exportWith(tokens.access_token)).status).toBe(200);

    // The sign-in was 6 minutes ago: the provider's session and the refresh token it renews with say so.
    const subject = decodeJwt(tokens.access_token).sub!;
    await database.pool.query(
      `update oidc_payloads
       set payload = jsonb_set(jsonb_set(payload, '{loginTs}', to_jsonb(floor(extract(epoch from now()))::bigint - 360)),
                               '{authTime}', to_jsonb(floor(extract(epoch from now()))::bigint - 360))
       where model in ('Session', 'RefreshToken') and payload->>'accountId' = $1`,
      [subject],
    );
    const renewed = await refresh(base, tokens.refresh_token, key);
    expect(renewed.status).toBe(200);
    const stale = await exportWith(renewed.body.access_token!);
    expect(stale.status).toBe(401);
    expect(stale.headers.get('www-authenticate')).toBe(
      'DPoP error="insufficient_user_authentication", error_description="A recent sign-in is required", max_age=300',
    );

    // The provider's session is too old for max_age=300: no code without signing in again...
    const { verifier, challenge } = pkce();
    const silent = await go(authorizeUrl(base, challenge, { prompt: 'none', max_age: '300' }));
    expect(new URL(silent.headers.get('location')!, base).searchParams.get('error')).toBe('login_required');
    // ...which asks for the password and then the second factor again.
    const asked = await go(authorizeUrl(base, challenge, { max_age: '300' }));
    const signInPage = await (await go(new URL(asked.headers.get('location')!, base).toString())).text();
    const login = new URL(/action="([^"]+\/login)"/.exec(signInPage)![1]!, base).toString();
    const second = await go(login, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: member.email, password: PASSWORD }).toString(),
    });
    expect(second.status).toBe(200);
    const done = await giveSecondFactor(base, go, second, { code: unspentCode(secret, spent) });
    const fresh = await finishSignIn(base, go, done, verifier, member.email, key);
    expect(decodeJwt(fresh.access_token).amr).toEqual(['pwd', 'otp', 'mfa']);
    expect((await exportWith(fresh.access_token)).status).toBe(200);
  });
});

describe('changes confirmed by the password ask an account with a second factor for it too', () => {
  it('changes the password of an account with a second factor only with its current code or an unused recovery code (spent once) beside the password; without one, the password alone', async () => {
    const member = await newMember();
    const change = (code?: string) =>
      member.call('POST', '/api/PasswordReset', {
        previousPassword: PASSWORD,
        proposedPassword: 'Brand-New-Pass-2026!',
        ...(code === undefined ? {} : { code }),
      });
    // Without a second factor the password alone is enough (the specification's form), as before.
    const plain = await newMember();
    expect(
      (
        await plain.call('POST', '/api/PasswordReset', {
          previousPassword: PASSWORD,
          proposedPassword: 'Brand-New-Pass-2026!',
        })
      ).status,
    ).toBe(200);

    const { secret, recoveryCodes } = await withAuthenticator(member);
    const missing = await change();
    expect([missing.status, missing.body.message]).toEqual([400, FACTOR_MESSAGES.codeRequired]);
    const accepted = [-1, 0, 1].map((step) => codeFor(secret, step));
    const wrong = await change(['000000', '111111', '222222', '333333'].find((code) => !accepted.includes(code)));
    expect([wrong.status, wrong.body.message]).toEqual([400, FACTOR_MESSAGES.wrongConfirmationCode]);
    // Nothing changed: the old password still signs in.
    expect((await attemptSignIn(base, member.email, PASSWORD)).status).not.toBe(401);

    const withRecovery = await change(recoveryCodes[0]);
    expect([withRecovery.status, withRecovery.body.message]).toEqual([200, 'Password changed']);
    // A recovery code is spent once.
    const again = await member.call('POST', '/api/PasswordReset', {
      previousPassword: 'Brand-New-Pass-2026!',
      proposedPassword: 'Another-New-Pass-2026!',
      code: recoveryCodes[0],
    });
    expect(again.status).toBe(400);
    const withApp = await member.call('POST', '/api/PasswordReset', {
      previousPassword: 'Brand-New-Pass-2026!',
      proposedPassword: 'Another-New-Pass-2026!',
      code: codeFor(secret, 1),
    });
    expect(withApp.status).toBe(200);
  });

  it('closes the account only with the code beside the password, and schedules nothing when it is wrong', async () => {
    const member = await newMember();
    const { secret } = await withAuthenticator(member);
    const missing = await member.call('POST', '/api/me/deletion', { password: PASSWORD });
    expect([missing.status, missing.body.message]).toEqual([400, FACTOR_MESSAGES.codeRequired]);
    const wrong = await member.call('POST', '/api/me/deletion', { password: PASSWORD, code: 'AAAAA-BBBBB' });
    expect([wrong.status, wrong.body.message]).toEqual([400, FACTOR_MESSAGES.wrongConfirmationCode]);
    const { rows } = await database.pool.query(
      'select 1 from account_deletions d join accounts a on a.account_id::text = d.subject where a.email = $1',
      [member.email],
    );
    expect(rows).toEqual([]);
    const closed = await member.call('POST', '/api/me/deletion', { password: PASSWORD, code: codeFor(secret, 1) });
    expect(closed.status).toBe(200);
  });
});
