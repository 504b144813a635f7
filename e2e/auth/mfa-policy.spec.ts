import { randomBytes } from 'node:crypto';
import { ENROLMENT_TEXTS } from '@ums/contracts/security';
import { expect } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { accessibilityViolations, signInOnProviderPage, test } from '../fixtures.js';
import { startProductServer } from '../product-server.js';

const PASSWORD = 'Policy-Admin-2026!';

/** The code an authenticator app shows for this key now. */
const codeFor = (key: string) => new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate();

// Administrators must sign in with two factors on this spec's server; the shared one has no such policy.
let server: Awaited<ReturnType<typeof startProductServer>>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startProductServer({ MFA_REQUIRED_GROUPS: 'Admin' });
});
test.afterAll(async () => server?.stop());

for (const size of [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
]) {
  test(`at ${size.width}px an administrator without a second factor sets up an authenticator app right after the password, then reaches the admin console`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const email = `policy-admin-${size.width}-${randomBytes(4).toString('hex')}@example.com`;
    server.cli('users', 'add', '--email', email, '--password', PASSWORD, '--admin');

    await page.goto(`${server.base}/admin`);
    await signInOnProviderPage(page, { email, password: PASSWORD });
    await expect(page.getByRole('heading', { name: ENROLMENT_TEXTS.title, level: 1 })).toBeVisible();
    expect(new URL(page.url()).pathname).toMatch(/^\/oidc\/interaction\//);
    expect(await accessibilityViolations(page), 'enrolment page').toEqual([]);

    // The authenticator app, as a person sets it up from the key shown in groups of four.
    const key = (await page.getByRole('code').textContent())!.replaceAll(' ', '');
    expect(key).toMatch(/^[A-Z2-7]{16,}$/);
    await page.getByLabel(ENROLMENT_TEXTS.codeLabel).fill(codeFor(key));
    await page.getByRole('button', { name: ENROLMENT_TEXTS.confirm }).click();
    await expect(page.getByRole('heading', { name: ENROLMENT_TEXTS.codesTitle, level: 1 })).toBeVisible();
    await expect(page.getByRole('listitem')).toHaveCount(10);
    expect(await accessibilityViolations(page), 'recovery codes page').toEqual([]);
    await page.getByRole('button', { name: ENROLMENT_TEXTS.continue }).click();

    await page.waitForURL((url) => url.pathname === '/admin' && !url.searchParams.has('code'));
    await expect(page.getByRole('banner')).toContainText('UMS Admin');
    await expect(page.getByRole('heading', { name: 'User Management System' })).toBeVisible();
    // The console's figures load: the API accepts the two-factor sign-in for the Admin group's routes.
    await expect(page.getByRole('list', { name: 'Figures' })).toBeVisible();
  });
}
