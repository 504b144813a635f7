import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import {
  authorizeUrl,
  browser,
  openSignOut,
  pkce,
  refresh,
  signIn,
  signsInSilently,
  type Browser,
} from '@ums/testkit/oidc-browser';
import { testSecrets } from '../../test/helper.js';
import { providerApp } from '../../test/oidc-client.js';
import { createAccountService } from './accounts.service.js';
import { storedId } from './oidc-adapter.js';
import { rotateRefreshToken } from './session-lifetime.js';

const PASSWORD = 'Session-Pass-42!';
const server = await providerApp({ SESSION_IDLE_MINUTES: '30', SESSION_MAX_HOURS: '12' });
const { base, database } = server;
const accounts = createAccountService({ db: database.db });

async function member() {
  const email = `session-${randomBytes(4).toString('hex')}@example.com`;
  const account = await accounts.add({ email, password: PASSWORD });
  return { email, accountId: account.accountId };
}

/** The account's provider session row: seconds it has left, and its payload. */
async function storedSession(accountId: string) {
  const { rows } = await database.pool.query<{ left: number; payload: { loginTs: number; transient?: boolean } }>(
    `select floor(extract(epoch from expires_at - now()))::int as left, payload from oidc_payloads
     where model = 'Session' and payload->>'accountId' = $1`,
    [accountId],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

const sessionCookie = (go: Browser) => go.setCookies.filter((c) => /^_session=/.test(c)).at(-1)!;
const claims = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, number>;

describe('provider sessions', () => {
  it('die with the browser and end after 30 idle minutes unless "Keep me signed in" is ticked', async () => {
    const { email, accountId } = await member();
    const ordinary = await signIn(base, email, PASSWORD);
    expect(sessionCookie(ordinary.go)).not.toMatch(/expires=/i);
    const row = await storedSession(accountId);
    expect(row.payload.transient).toBe(true);
    expect(row.left).toBeGreaterThan(30 * 60 - 10);
    expect(row.left).toBeLessThanOrEqual(30 * 60);

    const other = await member();
    const remembered = await signIn(base, other.email, PASSWORD, { remember: true });
    const expires = new Date(/expires=([^;]+)/i.exec(sessionCookie(remembered.go))![1]!).getTime();
    expect(expires - Date.now()).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);
    expect((await storedSession(other.accountId)).left).toBeGreaterThan(7 * 24 * 3600 - 60);
  });

  it('start their idle time again when the app renews its tokens, and end when idle for too long', async () => {
    const { email, accountId } = await member();
    const tokens = await signIn(base, email, PASSWORD);
    await database.pool.query(
      `update oidc_payloads set expires_at = now() + interval '20 seconds',
         payload = jsonb_set(payload, '{exp}', to_jsonb(extract(epoch from now())::bigint + 20))
       where model = 'Session' and payload->>'accountId' = $1`,
      [accountId],
    );
    const renewed = await refresh(base, tokens.refresh_token);
    expect(renewed.status).toBe(200);
    // The touch is part of the grant: done by the time the answer comes.
    expect((await storedSession(accountId)).left).toBeGreaterThan(29 * 60);

    // Idle past its limit: the session is gone, so are its refresh tokens, and the next visit asks to sign in.
    await database.pool.query(
      `update oidc_payloads set expires_at = now() - interval '1 second' where model = 'Session' and payload->>'accountId' = $1`,
      [accountId],
    );
    expect((await refresh(base, renewed.body.refresh_token!)).status).toBe(400);
    expect(await signsInSilently(base, tokens.go)).toBe(false);
  });

  it('are touched by a refresh token’s rotation only when it uses the token: a second rotation stores no replacement and moves neither their end nor their last use', async () => {
    const { email, accountId } = await member();
    const tokens = await signIn(base, email, PASSWORD);
    // 20 seconds left of its idle time, last used an hour ago: a touch moves both.
    const nearIdleLimit = async () => {
      await database.pool.query(
        `update oidc_payloads set expires_at = now() + interval '20 seconds' where model = 'Session' and payload->>'accountId' = $1`,
        [accountId],
      );
      await database.pool.query(
        `update session_details set last_active_at = now() - interval '1 hour' where account_id = $1`,
        [accountId],
      );
    };
    const lastUse = async () =>
      (
        await database.pool.query<{ at: Date }>(
          `select last_active_at as at from session_details where account_id = $1`,
          [accountId],
        )
      ).rows[0]!.at.getTime();
    const storedToken = async (token: string) =>
      (
        await database.pool.query<{ used: boolean }>(
          `select consumed_at is not null as used from oidc_payloads where model = 'RefreshToken' and id = $1`,
          [storedId('RefreshToken', token)],
        )
      ).rows;
    const rotate = (replacement: string) =>
      rotateRefreshToken(database.db, server.config.sessions, key, new Date(), {
        id: storedId('RefreshToken', replacement),
        payload: JSON.stringify({ accountId }),
        grantId: null,
        expiresAt: new Date(Date.now() + 3_600_000),
      });
    const key = { model: 'RefreshToken', id: storedId('RefreshToken', tokens.refresh_token) };

    await nearIdleLimit();
    const first = randomBytes(16).toString('hex');
    expect(await rotate(first)).toBe(true);
    expect(await storedToken(tokens.refresh_token)).toEqual([{ used: true }]);
    expect(await storedToken(first)).toEqual([{ used: false }]);
    expect((await storedSession(accountId)).left).toBeGreaterThan(29 * 60);
    expect(await lastUse()).toBeGreaterThan(Date.now() - 60_000);

    await nearIdleLimit();
    const second = randomBytes(16).toString('hex');
    expect(await rotate(second)).toBe(false);
    expect(await storedToken(second)).toEqual([]);
    expect((await storedSession(accountId)).left).toBeLessThanOrEqual(20);
    expect(await lastUse()).toBeLessThan(Date.now() - 59 * 60_000);
  });

  it('refuse a refresh token whose account is gone, or is named by no account id, with invalid_grant', async () => {
    for (const accountId of ['00000000-0000-4000-8000-000000000000', 'not-an-account-id']) {
      const { email, accountId: own } = await member();
      const tokens = await signIn(base, email, PASSWORD);
      await database.pool.query(
        `update oidc_payloads set payload = jsonb_set(payload, '{accountId}', to_jsonb($2::text))
         where model = 'RefreshToken' and payload->>'accountId' = $1`,
        [own, accountId],
      );
      const refused = await refresh(base, tokens.refresh_token);
      expect([refused.status, refused.body.error]).toEqual([400, 'invalid_grant']);
    }
  });

  it('end 12 hours after sign-in however busy they are: a renewal never extends past that', async () => {
    const { email, accountId } = await member();
    const tokens = await signIn(base, email, PASSWORD);
    // Signed in 11 h 59 min 30 s ago.
    await database.pool.query(
      `update oidc_payloads set payload = jsonb_set(payload, '{loginTs}', to_jsonb(floor(extract(epoch from now()))::bigint - 43170))
       where model = 'Session' and payload->>'accountId' = $1`,
      [accountId],
    );
    expect((await refresh(base, tokens.refresh_token)).status).toBe(200);
    expect((await storedSession(accountId)).left).toBeLessThanOrEqual(30);
    expect(await signsInSilently(base, tokens.go)).toBe(true);
    // Any save of the session (here a silent sign-in) keeps to the same end.
    expect((await storedSession(accountId)).left).toBeLessThanOrEqual(30);
  });

  it('issue access tokens for 10 minutes, or ACCESS_TOKEN_TTL', async () => {
    const { email } = await member();
    const standard = claims((await signIn(base, email, PASSWORD)).access_token);
    expect(standard['exp']! - standard['iat']!).toBe(600);
    const short = await providerApp({ ACCESS_TOKEN_TTL: '2m' });
    await createAccountService({ db: short.database.db }).add({ email, password: PASSWORD });
    const two = claims((await signIn(short.base, email, PASSWORD)).access_token);
    expect(two['exp']! - two['iat']!).toBe(120);
  });
});

describe('sign-out through the provider', () => {
  it("asks before signing out when the hint is another account's ID token, even an expired one", async () => {
    const victim = await member();
    const attacker = await member();
    const session = await signIn(base, victim.email, PASSWORD);
    const foreign = await signIn(base, attacker.email, PASSWORD);
    const page = await openSignOut(base, session.go, foreign.id_token);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Do you want to sign out of your membership account?');
    expect(page.html).not.toContain('sign-out.js');
    expect(await signsInSilently(base, session.go)).toBe(true);

    const own = await openSignOut(base, session.go, session.id_token);
    expect(own.html).toContain('Signing you out...');
    expect(own.html).toContain('<script src="/oidc-assets/sign-out.js"></script>');
  });
});

describe('the provider behind TLS', () => {
  it('marks its cookies Secure whenever PUBLIC_URL is https', async () => {
    const tls = await providerApp({ PUBLIC_URL: 'https://members.example.com' });
    const go = browser();
    // The client's redirect URI is the public https address; the request itself reaches the loopback port.
    const response = await go(
      authorizeUrl(tls.base, pkce().challenge, { redirect_uri: 'https://members.example.com/auth/callback' }),
    );
    expect(response.status).toBe(303);
    expect(go.setCookies.length).toBeGreaterThan(0);
    for (const cookie of go.setCookies) expect(cookie, cookie).toMatch(/;\s*secure/i);
  });
});

describe('request logs', () => {
  it('never record the ID token hint, codes or tokens that some addresses carry', async () => {
    let logged = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const app = await buildApp({
      config: server.config,
      db: database.db,
      secrets: testSecrets(database.db),
      embeddedIdentity: true,
      logger: { level: 'info', stream: sink },
    });
    const secret = `eyJ${randomBytes(24).toString('base64url')}`;
    await app.inject({ url: `/oidc/session/end?client_id=ums-web&id_token_hint=${secret}` });
    await app.inject({ url: `/auth/callback?code=${secret}-code&state=abc` });
    await app.inject({ url: `/api/userdetails/?access_token=${secret}-token` });
    await app.close();
    expect(logged).toContain('/oidc/session/end?client_id=ums-web&id_token_hint=[redacted]');
    expect(logged).not.toContain(secret);
  });
});
