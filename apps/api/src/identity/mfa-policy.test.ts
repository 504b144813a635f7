import { randomBytes } from 'node:crypto';
import { ENROLMENT_TEXTS, FACTOR_MESSAGES, RECOVERY_CODE_COUNT } from '@ums/contracts';
import { dpopKey } from '@ums/testkit/dpop';
import { attemptSignIn, authorizeUrl, browser, finishSignIn, pkce, signIn } from '@ums/testkit/oidc-browser';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { anotherProcess, apiCaller, providerApp } from '../../test/oidc-client.js';
import { createAccountService } from './accounts.service.js';

// The product with MFA_REQUIRED_GROUPS=Admin, and a second process on the same database without the policy.
const server = await providerApp({ MFA_REQUIRED_GROUPS: 'Admin' });
const { base, database } = server;
const accounts = createAccountService({ db: database.db });
const PASSWORD = 'Policy-Pass-2026!';
const lenientBase = await anotherProcess(server);

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const codeFor = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offset * 30_000,
  });

/** The memberships list, an administrators' route, through the process at `at`. */
async function adminStatus(at: string, token: string) {
  const { status, body } = await apiCaller(base, token)('GET', '/api/membership', undefined, at);
  return { status, body };
}

describe('MFA_REQUIRED_GROUPS', () => {
  it('makes an administrator without a second factor set one up right after the password, then signs in with mfa', async () => {
    const email = `policy-admin-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.add({ email, password: PASSWORD, admin: true });
    const go = browser();
    const { verifier, challenge } = pkce();
    const page = await attemptSignIn(base, email, PASSWORD, {}, go, challenge);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<h1>${ENROLMENT_TEXTS.title}</h1>`);
    expect(html).toContain('<svg');
    const key = /<code id="key">([A-Z2-7 ]+)<\/code>/.exec(html)![1]!;
    expect(key).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    const secret = key.replaceAll(' ', '');
    const action = new URL(/action="([^"]+\/enrol)"/.exec(html)![1]!, base).toString();

    const wrong = await go(action, { method: 'POST', headers: form, body: `code=${codeFor(secret, 5)}` });
    expect(wrong.status).toBe(400);
    const again = await wrong.text();
    expect(again).toContain(FACTOR_MESSAGES.wrongCode);
    expect(again).toContain(key);

    const codes = await go(action, { method: 'POST', headers: form, body: `code=${codeFor(secret)}` });
    const codesPage = await codes.text();
    expect(codesPage).toContain(`<h1>${ENROLMENT_TEXTS.codesTitle}</h1>`);
    expect(codesPage.match(/<li><code>[a-z2-9]{5}-[a-z2-9]{5}<\/code><\/li>/g)).toHaveLength(RECOVERY_CODE_COUNT);
    const onward = new URL(/action="([^"]+\/enrolled)"/.exec(codesPage)![1]!, base).toString();
    const dpop = await dpopKey();
    const tokens = await finishSignIn(
      base,
      go,
      await go(onward, { method: 'POST', headers: form, body: '' }),
      verifier,
      email,
      dpop,
    );
    expect(decodeJwt(tokens.access_token).amr).toEqual(['pwd', 'otp', 'mfa']);
    expect((await adminStatus(base, tokens.access_token)).status).toBe(200);

    // Next time: the password, then the second step, as for anyone with a second factor.
    const next = await signIn(base, email, PASSWORD, { secondFactor: { code: codeFor(secret, 1) }, dpop });
    expect(decodeJwt(next.access_token).amr).toEqual(['pwd', 'otp', 'mfa']);
  });

  it("refuses the group's routes to a token without mfa, saying what to do; members outside the group sign in as before", async () => {
    const email = `policy-admin-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.add({ email, password: PASSWORD, admin: true });
    const dpop = await dpopKey();
    // Signed in where the policy is off: a password alone.
    const go = browser();
    const { verifier, challenge } = pkce();
    const first = await go(authorizeUrl(base, challenge));
    const signInForm = await (await go(new URL(first.headers.get('location')!, base).toString())).text();
    const login = /action="([^"]+)"/.exec(signInForm)![1]!;
    const page = await go(new URL(login, lenientBase).toString(), {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ email, password: PASSWORD }).toString(),
    });
    expect(page.status).toBe(303);
    const { access_token } = await finishSignIn(base, go, page, verifier, email, dpop);
    expect(decodeJwt(access_token).amr).toEqual(['pwd']);
    expect(await adminStatus(base, access_token)).toEqual({
      status: 403,
      body: expect.objectContaining({ message: FACTOR_MESSAGES.mfaRequired }),
    });
    expect((await adminStatus(lenientBase, access_token)).status).toBe(200);

    const member = `policy-member-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.add({ email: member, password: PASSWORD });
    expect(decodeJwt((await signIn(base, member, PASSWORD)).access_token).amr).toEqual(['pwd']);
  });
});
