import { describe, expect, it } from 'vitest';
import { testApp } from './helper.js';

const [byDefault, production, productionOptIn, switchedOff] = await Promise.all([
  testApp(),
  testApp({ env: { NODE_ENV: 'production' } }),
  testApp({ env: { NODE_ENV: 'production', API_DOCS: 'true' } }),
  testApp({ env: { API_DOCS: 'false' } }),
]);

const status = async (ctx: typeof byDefault, url: string) => (await ctx.app.inject({ url })).statusCode;

describe('the API documentation (/api/docs)', () => {
  it('is served by default, and in production only when API_DOCS=true', async () => {
    expect(await status(byDefault, '/api/docs/json')).toBe(200);
    expect(await status(production, '/api/docs/json')).toBe(404);
    expect(await status(production, '/api/docs')).toBe(404);
    expect(await status(productionOptIn, '/api/docs/json')).toBe(200);
    expect(await status(switchedOff, '/api/docs/json')).toBe(404);
  });

  it("is served under the app's own content security policy, not a looser one of its own", async () => {
    const appPolicy = (await byDefault.app.inject({ url: '/api/health' })).headers['content-security-policy'];
    expect(appPolicy).toContain("script-src 'self'");
    expect(appPolicy).toContain("require-trusted-types-for 'script'");
    for (const url of ['/api/docs/', '/api/docs/json', '/api/docs/static/swagger-ui-bundle.js']) {
      const response = await byDefault.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-security-policy'], url).toBe(appPolicy);
    }
  });

  it('refuses a value of API_DOCS other than true or false', async () => {
    await expect(testApp({ env: { API_DOCS: 'yes' } })).rejects.toThrow(/API_DOCS: must be true or false/);
  });
});
