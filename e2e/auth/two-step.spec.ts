import { randomBytes } from 'node:crypto';
import { SECOND_FACTOR_TEXTS } from '@ums/contracts/security';
import { expect } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { accessibilityViolations, memberApi, test } from '../fixtures.js';

const PASSWORD = 'Two-Step-Journey-2026!';

/** The code an authenticator app shows for this key, `steps` periods of 30 s from now. */
const codeFor = (key: string, steps: number) =>
  new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

for (const size of [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
]) {
  test(`at ${size.width}px a member with an authenticator app signs in with the password, then a code or a recovery code, on pages axe finds clean`, async ({
    page,
    browser,
    baseURL,
  }) => {
    await page.setViewportSize(size);
    const base = baseURL!;
    const email = `two-step-${size.width}-${randomBytes(4).toString('hex')}@example.com`;
    // The authenticator app, set up through the Security section's calls.
    const post = await memberApi(base, email, PASSWORD);
    const key = String((await post('/api/security/totp/setup', {}))['secret']);
    const { recoveryCodes } = (await post('/api/security/totp', { code: codeFor(key, 0) })) as {
      recoveryCodes: string[];
    };

    await page.goto('/');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { name: SECOND_FACTOR_TEXTS.title })).toBeVisible();
    expect(await accessibilityViolations(page), 'two-step verification').toEqual([]);
    // A wrong code first: the page says so and asks again.
    await page.getByLabel(SECOND_FACTOR_TEXTS.codeLabel).fill(codeFor(key, 5));
    await page.getByRole('button', { name: SECOND_FACTOR_TEXTS.verify }).click();
    await expect(page.getByRole('alert')).toHaveText(SECOND_FACTOR_TEXTS.wrongCode);
    expect(await accessibilityViolations(page), 'wrong code').toEqual([]);
    await page.getByLabel(SECOND_FACTOR_TEXTS.codeLabel).fill(codeFor(key, 1));
    await page.getByRole('button', { name: SECOND_FACTOR_TEXTS.verify }).click();
    await page.waitForURL((url) => url.pathname === '/' && !url.searchParams.has('code'));
    await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();

    // Another browser, without the app at hand: a recovery code instead.
    const otherContext = await browser.newContext({ viewport: size });
    const other = await otherContext.newPage();
    await other.goto(`${base}/`);
    await other.getByLabel('Email').fill(email);
    await other.getByLabel('Password').fill(PASSWORD);
    await other.getByRole('button', { name: 'Sign in', exact: true }).click();
    await other.getByRole('link', { name: SECOND_FACTOR_TEXTS.useRecoveryCode }).click();
    await expect(other.getByLabel(SECOND_FACTOR_TEXTS.recoveryLabel)).toBeVisible();
    expect(await accessibilityViolations(other), 'recovery code').toEqual([]);
    await other.getByLabel(SECOND_FACTOR_TEXTS.recoveryLabel).fill(recoveryCodes[0]!);
    await other.getByRole('button', { name: SECOND_FACTOR_TEXTS.verify }).click();
    await other.waitForURL((url) => url.pathname === '/' && !url.searchParams.has('code'));
    await expect(other.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
    await otherContext.close();
  });
}
