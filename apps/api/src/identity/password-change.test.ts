import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PASSWORD_RULES } from '@ums/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { testApp } from '../../test/helper.js';
import { createAccountService } from './accounts.service.js';
import { MAX_PASSWORD_ATTEMPTS, PASSWORD_MESSAGES } from './password-change.js';

describe('password change with the embedded provider', async () => {
  const ctx = await testApp();
  const accounts = createAccountService({ db: ctx.db });
  const make = async (email: string) => {
    const account = await accounts.add({ email, password: 'Start-Pass-1' });
    return { sub: account.accountId, email, groups: [] as string[] };
  };
  const change = async (who: { sub: string; email: string; groups: string[] }, body: unknown) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/PasswordReset',
      headers: { ...(await ctx.signedIn(who)), 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    return { status: response.statusCode, body: response.json() };
  };

  it('changes the password, so the new one signs in, and revokes refresh tokens', async () => {
    const who = await make('change@example.com');
    await ctx.pool.query(`insert into oidc_payloads (model, id, payload) values ('RefreshToken', 'rt1', $1)`, [
      JSON.stringify({ accountId: who.sub }),
    ]);
    const result = await change(who, { previousPassword: 'Start-Pass-1', proposedPassword: 'Brand-New-2' });
    expect(result).toEqual({ status: 200, body: { isError: false, message: 'Password changed', data: [] } });
    expect(await accounts.verifyCredentials('change@example.com', 'Brand-New-2')).not.toBeNull();
    expect(await accounts.verifyCredentials('change@example.com', 'Start-Pass-1')).toBeNull();
    const { rows } = await ctx.pool.query(`select 1 from oidc_payloads where model = 'RefreshToken'`);
    expect(rows).toHaveLength(0);
  });

  it('answers 400 with the reason for a wrong current password and for every policy rule', async () => {
    const who = await make('rules@example.com');
    expect(await change(who, { previousPassword: 'Wrong-Pass-1', proposedPassword: 'Brand-New-2' })).toMatchObject({
      status: 400,
      body: { isError: true, message: PASSWORD_MESSAGES.wrongCurrent },
    });
    const breaking: Record<string, string> = {
      'min-length': 'Ab1!',
      'max-length': `Ab1!${'xy'.repeat(127)}`,
      lowercase: 'ABCD123!',
      uppercase: 'abcd123!',
      number: 'Abcdefg!',
      special: 'Abcdefg1',
      repeats: 'Abbb123!',
    };
    for (const rule of PASSWORD_RULES) {
      const who2 = await make(`rule-${rule.id}@example.com`);
      const result = await change(who2, { previousPassword: 'Start-Pass-1', proposedPassword: breaking[rule.id] });
      expect(result.status, rule.id).toBe(400);
      expect(result.body.message, rule.id).toContain(rule.message);
    }
    expect(await accounts.verifyCredentials('rules@example.com', 'Start-Pass-1')).not.toBeNull();
  });

  it(`refuses the attempt after ${MAX_PASSWORD_ATTEMPTS} in 15 minutes with 429`, async () => {
    const who = await make('limit@example.com');
    for (let i = 0; i < MAX_PASSWORD_ATTEMPTS; i++) {
      expect((await change(who, { previousPassword: 'Wrong-Pass-1', proposedPassword: 'Brand-New-2' })).status).toBe(
        400,
      );
    }
    expect(await change(who, { previousPassword: 'Start-Pass-1', proposedPassword: 'Brand-New-2' })).toMatchObject({
      status: 429,
      body: { message: PASSWORD_MESSAGES.tooMany },
    });
  });

  it(`checks at most ${MAX_PASSWORD_ATTEMPTS} of 50 wrong current passwords sent at once; the rest answer 429 unchecked`, async () => {
    const who = await make('burst@example.com');
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        change(who, { previousPassword: 'Wrong-Pass-1', proposedPassword: 'Brand-New-2' }),
      ),
    );
    const messages = results.map((r) => `${r.status} ${r.body.message}`);
    expect(messages.filter((m) => m === `400 ${PASSWORD_MESSAGES.wrongCurrent}`)).toHaveLength(MAX_PASSWORD_ATTEMPTS);
    expect(messages.filter((m) => m === `429 ${PASSWORD_MESSAGES.tooMany}`)).toHaveLength(50 - MAX_PASSWORD_ATTEMPTS);
  });

  it('answers 401 without a token', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/PasswordReset', payload: {} });
    expect(response.statusCode).toBe(401);
  });
});

describe('password change in Cognito mode', async () => {
  const seen: { target?: string; body?: Record<string, string> }[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: {} };
  const cognito = http.createServer((request, response) => {
    let data = '';
    request.on('data', (chunk: Buffer) => (data += chunk.toString()));
    request.on('end', () => {
      seen.push({ target: String(request.headers['x-amz-target']), body: JSON.parse(data) });
      response.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => cognito.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => cognito.close(() => resolve())));
  const ctx = await testApp({
    env: {
      AUTH_PROVIDER: 'cognito',
      AUTH_ISSUER: 'http://localhost:8080/oidc',
      COGNITO_ENDPOINT: `http://127.0.0.1:${(cognito.address() as AddressInfo).port}/`,
    },
  });
  // Each case as its own member, so our own per-member attempt limit stays out of the way.
  const change = async (sub = 'cognito-user') => {
    const headers = await ctx.signedIn({ sub, email: 'c@example.com', groups: [] });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/PasswordReset',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ previousPassword: 'Old-Pass-1', proposedPassword: 'Brand-New-2' }),
    });
    return { status: response.statusCode, body: response.json(), token: headers.authorization.replace(/^DPoP /, '') };
  };

  it("sends ChangePassword with the member's access token", async () => {
    const result = await change();
    expect(result.status).toBe(200);
    expect(seen.at(-1)).toEqual({
      target: 'AWSCognitoIdentityProviderService.ChangePassword',
      body: { PreviousPassword: 'Old-Pass-1', ProposedPassword: 'Brand-New-2', AccessToken: result.token },
    });
  });

  it("maps Cognito's errors to the statuses the browser knows", async () => {
    const cases: [string, string, number][] = [
      ['NotAuthorizedException', 'Incorrect username or password.', 400],
      ['NotAuthorizedException', 'Invalid Access Token', 401],
      ['InvalidPasswordException', 'Password does not conform to policy', 400],
      ['LimitExceededException', 'Attempt limit exceeded', 429],
      ['InternalErrorException', 'boom', 500],
    ];
    for (const [type, message, status] of cases) {
      answer = { status: 400, body: { __type: type, message } };
      expect((await change(`cognito-${type}-${status}`)).status, type).toBe(status);
    }
  });
});

describe('password change with another OpenID provider', async () => {
  const ctx = await testApp({ env: { AUTH_ISSUER: 'http://localhost:8080/oidc' } });
  it('says the provider manages passwords', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/PasswordReset',
      headers: {
        ...(await ctx.signedIn({ sub: 'x', email: 'x@example.com', groups: [] })),
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ previousPassword: 'Old-Pass-1', proposedPassword: 'Brand-New-2' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(PASSWORD_MESSAGES.managedElsewhere);
  });
});
