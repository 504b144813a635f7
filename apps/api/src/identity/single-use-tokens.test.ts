import { describe, expect, it } from 'vitest';
import { dpopKey } from '@ums/testkit/dpop';
import { authorizeUrl, pkce, refresh, signIn } from '@ums/testkit/oidc-browser';
import { providerApp } from '../../test/oidc-client.js';
import { createAccountService } from './accounts.service.js';

const server = await providerApp();
const { base, database } = server;
const accounts = createAccountService({ db: database.db });
await accounts.add({ email: 'race@example.com', password: 'Race-Pass-42' });

// A race is won or lost by timing: several rounds make a double success near certain where the store allows one.
const ROUNDS = 5;

/** Exchanges an authorization code at the token endpoint, as the web app does (with a proof of its key). */
const key = await dpopKey();
async function exchange(code: string, verifier: string, proof = key.proof('POST', `${base}/oidc/token`)) {
  const response = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      dpop: proof,
    },
    body: new URLSearchParams({
      client_id: 'ums-web',
      grant_type: 'authorization_code',
      code,
      redirect_uri: server.redirect,
      code_verifier: verifier,
    }).toString(),
  });
  return { status: response.status, body: (await response.json()) as { error?: string; refresh_token?: string } };
}

const statuses = (answers: { status: number; body: { error?: string } }[]) =>
  answers.map((answer) => `${answer.status} ${answer.body.error ?? ''}`).join(', ');

describe('single-use credentials stay single-use under concurrent requests', () => {
  it('two concurrent uses of one refresh token: at most one gets tokens, and the grant then ends', async () => {
    let grantedRounds = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const tokens = await signIn(base, 'race@example.com', 'Race-Pass-42');
      const answers = await Promise.all([refresh(base, tokens.refresh_token), refresh(base, tokens.refresh_token)]);
      const granted = answers.filter((answer) => answer.status === 200);
      expect(granted.length, `round ${round}: ${statuses(answers)}`).toBeLessThanOrEqual(1);
      grantedRounds += granted.length;
      for (const refused of answers.filter((answer) => answer.status !== 200)) {
        expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      }
      // A reused refresh token has leaked: as with a reuse that comes later, the grant ends, the winner's tokens too.
      for (const winner of granted) expect((await refresh(base, winner.body.refresh_token!)).status).toBe(400);
    }
    // The refreshes were ones the provider takes: some round had a winner (a refusal of both every time proves nothing).
    expect(grantedRounds).toBeGreaterThan(0);
  });

  it('two concurrent exchanges of one authorization code: at most one gets tokens', async () => {
    const { go } = await signIn(base, 'race@example.com', 'Race-Pass-42');
    for (let round = 0; round < ROUNDS; round++) {
      const { verifier, challenge } = pkce();
      const authorized = await go(authorizeUrl(base, challenge, { prompt: 'none' }));
      const code = new URL(authorized.headers.get('location')!, base).searchParams.get('code');
      expect(code, 'the provider session answers with a code').toBeTruthy();
      const answers = await Promise.all([exchange(code!, verifier), exchange(code!, verifier)]);
      expect(answers.filter((answer) => answer.status === 200).length, `round ${round}: ${statuses(answers)}`).toBe(1);
      expect(answers.find((answer) => answer.status !== 200)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    }
  });
});

describe('a code is used by its exchange', () => {
  it('two exchanges of one code with one proof at once: at most one gets tokens, and the code is used', async () => {
    // The proof's second use is refused after the code was checked, so the refused exchange uses the code too.
    const { go } = await signIn(base, 'race@example.com', 'Race-Pass-42');
    let grantedRounds = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { verifier, challenge } = pkce();
      const authorized = await go(authorizeUrl(base, challenge, { prompt: 'none' }));
      const code = new URL(authorized.headers.get('location')!, base).searchParams.get('code');
      expect(code, 'the provider session answers with a code').toBeTruthy();
      const proof = key.proof('POST', `${base}/oidc/token`);
      const answers = await Promise.all([exchange(code!, verifier, proof), exchange(code!, verifier, proof)]);
      const granted = answers.filter((answer) => answer.status === 200);
      expect(granted.length, `round ${round}: ${statuses(answers)}`).toBeLessThanOrEqual(1);
      grantedRounds += granted.length;
      for (const refused of answers.filter((answer) => answer.status !== 200)) {
        expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      }
      expect(await exchange(code!, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
    expect(grantedRounds).toBeGreaterThan(0);
  });

  it('even when the exchange fails after the code was checked: its account gone, the code is refused and spent', async () => {
    const { accountId } = await accounts.add({ email: 'spent-code@example.com', password: 'Race-Pass-42' });
    const { go } = await signIn(base, 'spent-code@example.com', 'Race-Pass-42');
    const { verifier, challenge } = pkce();
    const authorized = await go(authorizeUrl(base, challenge, { prompt: 'none' }));
    const code = new URL(authorized.headers.get('location')!, base).searchParams.get('code')!;
    await database.pool.query('delete from accounts where account_id = $1', [accountId]);

    expect(await exchange(code, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // Used by the refused exchange, as oidc-provider uses a code before it looks for its account.
    const { rows } = await database.pool.query<{ consumed: boolean }>(
      `select consumed_at is not null as consumed from oidc_payloads
       where model = 'AuthorizationCode' and id = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      [code],
    );
    expect(rows).toEqual([{ consumed: true }]);
  });
});

describe('a DPoP proof is used once at the token endpoint', () => {
  /** A refresh with the proof given, not a new one. */
  const refreshWith = async (refreshToken: string, proof: string) => {
    const response = await fetch(`${base}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: proof },
      body: new URLSearchParams({
        client_id: 'ums-web',
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      }).toString(),
    });
    return {
      status: response.status,
      body: (await response.json()) as { error?: string; error_description?: string },
    };
  };

  it('one proof sent with two sessions of its key at once: one refresh gets tokens, the other is refused as a replay', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const first = await signIn(base, 'race@example.com', 'Race-Pass-42', { dpop: key });
      const second = await signIn(base, 'race@example.com', 'Race-Pass-42', { dpop: key });
      const proof = key.proof('POST', `${base}/oidc/token`);
      const answers = await Promise.all([
        refreshWith(first.refresh_token, proof),
        refreshWith(second.refresh_token, proof),
      ]);
      expect(answers.filter((answer) => answer.status === 200).length, `round ${round}: ${statuses(answers)}`).toBe(1);
      // Both refresh tokens are good: the proof used twice is the only reason to refuse one (the provider does not
      // say which reason it had).
      expect(answers.find((answer) => answer.status !== 200)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
      // Sent again later, on its own, it is refused too.
      expect(await refreshWith(second.refresh_token, proof)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    }
  });
});
