import { describe, expect, it } from 'vitest';
import { STEP_UP_MESSAGE } from '../src/plugins/auth.js';
import { paths } from '../src/runtime.js';
import { seedDemoData } from '../src/seed/demo-data.js';
import { ADMIN, MEMBER, testApp } from './helper.js';

const ctx = await testApp();
await seedDemoData(ctx.db, paths.catalogFile, MEMBER.sub);
const now = () => Math.floor(Date.now() / 1000);

/** The sensitive actions of issue 34: each needs a sign-in within STEP_UP_MAX_AGE_SECONDS (300 by default). */
const STEP_UP_ROUTES = [
  'GET /api/me/export',
  'POST /api/security/totp/setup',
  'POST /api/security/totp',
  'DELETE /api/security/totp',
  'POST /api/security/recovery-codes',
  'POST /api/security/passkeys/options',
  'POST /api/security/passkeys',
  'DELETE /api/security/passkeys/:id',
  'POST /api/admin/members/:id/end-sessions',
  'POST /api/admin/members/:id/reset-sign-in-methods',
  'PUT /api/admin/members/:id/groups',
];

describe('step-up (RFC 9470) before sensitive actions', () => {
  it('is declared by exactly the sensitive actions', () => {
    const declared = ctx.app.routeTable
      .filter((r) => r.stepUp && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect(declared.sort()).toEqual([...STEP_UP_ROUTES].sort());
  });

  it('refuses a sign-in older than 5 minutes, or one the token does not date, with insufficient_user_authentication and max_age', async () => {
    for (const claims of [{ auth_time: now() - 301 }, { auth_time: undefined }]) {
      const token = await ctx.keys.token({ ...MEMBER, ...claims });
      const answer = await ctx.app.inject({ url: '/api/me/export', headers: { authorization: `DPoP ${token}` } });
      expect(answer.statusCode).toBe(401);
      expect(answer.headers['www-authenticate']).toBe(
        'DPoP error="insufficient_user_authentication", error_description="A recent sign-in is required", max_age=300',
      );
      expect(answer.json()).toMatchObject({ isError: true, message: STEP_UP_MESSAGE });
    }
    const admin = await ctx.keys.token({ ...ADMIN, auth_time: now() - 600 });
    const groups = await ctx.app.inject({
      method: 'PUT',
      url: `/api/admin/members/${MEMBER.sub}/groups`,
      headers: { authorization: `DPoP ${admin}`, 'content-type': 'application/json' },
      payload: { groups: ['Admin'] },
    });
    expect(groups.statusCode).toBe(401);
  });

  it('lets a sign-in of the last 5 minutes through, and asks nothing of the other routes', async () => {
    const recent = await ctx.keys.token({ ...MEMBER, auth_time: now() - 240 });
    const answer = await ctx.app.inject({ url: '/api/me/export', headers: { authorization: `DPoP ${recent}` } });
    expect(answer.statusCode).toBe(200);
    const old = await ctx.keys.token({ ...MEMBER, auth_time: now() - 3600 });
    const details = await ctx.app.inject({ url: '/api/userdetails/', headers: { authorization: `DPoP ${old}` } });
    expect(details.statusCode).toBe(200);
  });
});
