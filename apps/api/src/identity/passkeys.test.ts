import { randomBytes } from 'node:crypto';
import {
  PASSKEY_MESSAGES,
  PASSKEY_SIGN_IN_TEXTS,
  RECOVERY_CODE_COUNT,
  SECOND_FACTOR_TEXTS,
  type SecurityFactors,
} from '@ums/contracts';
import { dpopKey } from '@ums/testkit/dpop';
import {
  attemptSignIn,
  authorizeUrl,
  browser,
  finishSignIn,
  pkce,
  signIn,
  type Browser,
} from '@ums/testkit/oidc-browser';
import { softAuthenticator, type SoftAuthenticator } from '@ums/testkit/webauthn';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { apiCaller, providerApp } from '../../test/oidc-client.js';
import { createAccountService } from './accounts.service.js';

const server = await providerApp();
const { base, database } = server;
const accounts = createAccountService({ db: database.db });
const PASSWORD = 'Passkey-Pass-2026!';
const form = { 'content-type': 'application/x-www-form-urlencoded' };

async function newMember() {
  const email = `passkey-${randomBytes(4).toString('hex')}@example.com`;
  await accounts.add({ email, password: PASSWORD });
  const key = await dpopKey();
  const tokens = await signIn(base, email, PASSWORD, { dpop: key });
  const call = apiCaller(base, tokens.access_token);
  return { email, call };
}
type Member = Awaited<ReturnType<typeof newMember>>;

/** Adds a passkey from the Security section: the options, the authenticator's answer, a name. */
async function addPasskey(member: Member, authenticator: SoftAuthenticator, name = 'Laptop') {
  const options = (await member.call('POST', '/api/security/passkeys/options')).body.data[0] as Parameters<
    SoftAuthenticator['create']
  >[0];
  return member.call('POST', '/api/security/passkeys', { response: authenticator.create(options), name });
}

/** Opens the sign-in page and answers its passkey ceremony; the response the form post got, and how to finish. */
async function passkeyCeremony(
  authenticator: SoftAuthenticator,
  tamper: (answer: ReturnType<SoftAuthenticator['get']>) => unknown = (answer) => answer,
  page?: { go: Browser; html: string; verifier: string },
) {
  let state = page;
  if (!state) {
    const go = browser();
    const { verifier, challenge } = pkce();
    const first = await go(authorizeUrl(base, challenge));
    const html = await (await go(new URL(first.headers.get('location')!, base).toString())).text();
    state = { go, html, verifier };
  }
  const found = /<form id="passkey-form" method="post" action="([^"]+)" data-options="([^"]+)"/.exec(state.html);
  expect(found).not.toBeNull();
  const options = (await (await state.go(new URL(found![2]!, base).toString())).json()) as { challenge: string };
  const answer = tamper(authenticator.get(options));
  const response = await state.go(new URL(found![1]!, base).toString(), {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({ response: JSON.stringify(answer), remember: '' }).toString(),
  });
  return { response, options, ...state };
}

describe('passkeys in the Security section', () => {
  it('are registered with user verification and a resident key, listed, renamed and removed, by their owner only', async () => {
    const member = await newMember();
    const laptop = softAuthenticator({ origin: base });
    const options = (await member.call('POST', '/api/security/passkeys/options')).body.data[0] as {
      authenticatorSelection: Record<string, unknown>;
      rp: { id: string };
      excludeCredentials: unknown[];
    };
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.rp.id).toBe('127.0.0.1');
    expect(options.excludeCredentials).toEqual([]);

    const added = await addPasskey(member, laptop);
    expect(added.status).toBe(200);
    expect(added.body.message).toBe(PASSKEY_MESSAGES.added);
    const { id, recoveryCodes } = added.body.data[0] as { id: string; recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    const again = (await member.call('POST', '/api/security/passkeys/options')).body.data[0] as {
      excludeCredentials: { id: string }[];
    };
    expect(again.excludeCredentials.map((c) => c.id)).toEqual([id]);

    const factors = (await member.call('GET', '/api/security/factors')).body.data[0] as SecurityFactors;
    expect(factors.passkeys).toEqual([
      { id, name: 'Laptop', createdAt: expect.any(String), lastUsedAt: null, backedUp: false },
    ]);

    expect(await member.call('PATCH', `/api/security/passkeys/${id}`, { name: 'Work laptop' })).toMatchObject({
      status: 200,
      body: { message: PASSKEY_MESSAGES.renamed },
    });
    const bad = await member.call('PATCH', `/api/security/passkeys/${id}`, { name: 'two\nlines' });
    expect(bad.status).toBe(400);
    const stranger = await newMember();
    expect(await stranger.call('PATCH', `/api/security/passkeys/${id}`, { name: 'Mine' })).toMatchObject({
      status: 404,
      body: { message: PASSKEY_MESSAGES.notFound },
    });
    expect((await stranger.call('DELETE', `/api/security/passkeys/${id}`)).status).toBe(404);

    expect(await member.call('DELETE', `/api/security/passkeys/${id}`)).toMatchObject({
      status: 200,
      body: { message: PASSKEY_MESSAGES.removed },
    });
    const after = (await member.call('GET', '/api/security/factors')).body.data[0] as SecurityFactors;
    expect(after).toMatchObject({ passkeys: [], recoveryCodes: { remaining: 0 } });
  });

  it('refuses a challenge used twice, one made for another account, another site, and no user verification', async () => {
    const member = await newMember();
    const other = await newMember();
    const options = (await member.call('POST', '/api/security/passkeys/options')).body.data[0] as Parameters<
      SoftAuthenticator['create']
    >[0];
    const authenticator = softAuthenticator({ origin: base });
    const refused = { status: 400, body: { message: PASSKEY_MESSAGES.refused } };
    // Another account's challenge is refused (and stays the owner's).
    expect(
      await other.call('POST', '/api/security/passkeys', { response: authenticator.create(options), name: 'X' }),
    ).toMatchObject(refused);
    expect(
      (await member.call('POST', '/api/security/passkeys', { response: authenticator.create(options), name: 'A' }))
        .status,
    ).toBe(200);
    // Used once: the same challenge again is refused.
    expect(
      await member.call('POST', '/api/security/passkeys', { response: authenticator.create(options), name: 'B' }),
    ).toMatchObject(refused);
    const fresh = async () =>
      (await member.call('POST', '/api/security/passkeys/options')).body.data[0] as Parameters<
        SoftAuthenticator['create']
      >[0];
    const elsewhere = softAuthenticator({ origin: 'https://evil.example' });
    expect(
      await member.call('POST', '/api/security/passkeys', { response: elsewhere.create(await fresh()), name: 'X' }),
    ).toMatchObject(refused);
    const unverified = softAuthenticator({ origin: base, userVerified: false });
    expect(
      await member.call('POST', '/api/security/passkeys', { response: unverified.create(await fresh()), name: 'X' }),
    ).toMatchObject(refused);
    const names = ((await member.call('GET', '/api/security/factors')).body.data[0] as SecurityFactors).passkeys;
    expect(names.map((key) => key.name)).toEqual(['A']);
  });
});

describe('signing in with a passkey', () => {
  it('signs in with a passkey alone, as two factors (hwk for a device-bound key, swk for a synced one)', async () => {
    for (const [synced, method] of [
      [false, 'hwk'],
      [true, 'swk'],
    ] as const) {
      const member = await newMember();
      const authenticator = softAuthenticator({ origin: base, synced });
      expect((await addPasskey(member, authenticator)).status).toBe(200);
      const ceremony = await passkeyCeremony(authenticator);
      expect(ceremony.html).toContain('autocomplete="username webauthn"');
      expect(ceremony.html).toContain(PASSKEY_SIGN_IN_TEXTS.signInWithPasskey);
      const tokens = await finishSignIn(base, ceremony.go, ceremony.response, ceremony.verifier, member.email);
      expect(decodeJwt(tokens.access_token)).toMatchObject({ amr: [method, 'mfa'] });
      const listed = ((await member.call('GET', '/api/security/factors')).body.data[0] as SecurityFactors).passkeys;
      expect(listed[0]!.lastUsedAt).not.toBeNull();
    }
  });

  it('refuses a tampered answer and a challenge answered twice, saying so on the sign-in page', async () => {
    const member = await newMember();
    const authenticator = softAuthenticator({ origin: base });
    await addPasskey(member, authenticator);
    const tampered = await passkeyCeremony(authenticator, (answer) => ({
      ...answer,
      response: { ...answer.response, signature: Buffer.alloc(70, 1).toString('base64url') },
    }));
    expect(tampered.response.status).toBe(401);
    expect(await tampered.response.text()).toContain(PASSKEY_SIGN_IN_TEXTS.refused);

    // A good answer, then the very same answer again: its challenge is spent.
    let first: ReturnType<SoftAuthenticator['get']> | undefined;
    const once = await passkeyCeremony(authenticator, (answer) => (first = answer));
    expect(once.response.status).toBe(303);
    const replayed = await passkeyCeremony(authenticator, () => first);
    expect(replayed.response.status).toBe(401);
  });

  it("is the second step after a password for an account whose second factor is a passkey, scoped to that account's keys", async () => {
    const member = await newMember();
    const authenticator = softAuthenticator({ origin: base });
    await addPasskey(member, authenticator);
    const go = browser();
    const { verifier, challenge } = pkce();
    const page = await attemptSignIn(base, member.email, PASSWORD, {}, go, challenge);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<h1>${SECOND_FACTOR_TEXTS.title}</h1>`);
    expect(html).toContain(SECOND_FACTOR_TEXTS.usePasskey);
    expect(html).not.toContain('for="code"');

    // Another account's passkey does not complete this account's second step.
    const stranger = await newMember();
    const theirs = softAuthenticator({ origin: base });
    await addPasskey(stranger, theirs);
    const wrong = await passkeyCeremony(theirs, (answer) => answer, { go, html, verifier });
    expect(wrong.response.status).toBe(401);

    const second = await passkeyCeremony(authenticator, (answer) => answer, {
      go,
      html: await wrong.response.text(),
      verifier,
    });
    expect(second.options).toMatchObject({
      allowCredentials: [{ id: authenticator.credentials[0]!.id.toString('base64url') }],
    });
    const tokens = await finishSignIn(base, go, second.response, verifier, member.email);
    expect(decodeJwt(tokens.access_token).amr).toEqual(['pwd', 'hwk', 'mfa']);
  });
});
