import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The demo accounts the e2e server is started with (playwright.config.ts). */
export const MEMBER = { email: 'member@example.com', password: 'Member-Demo-2026' };
export const ADMIN = { email: 'admin@example.com', password: 'Admin-Demo-2026' };

/** Fills the embedded provider's sign-in page, which the app has already redirected to. */
export async function signInOnProviderPage(page: Page, account: { email: string; password: string }) {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(new URL(page.url()).pathname).toMatch(/^\/oidc\/interaction\//);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens a path signed out, signs in on the provider's page and waits until the app shows that path again. */
export async function visitSignedIn(page: Page, path: string, account: { email: string; password: string }) {
  await page.goto(path);
  await signInOnProviderPage(page, account);
  const target = new URL(path, 'http://x');
  await page.waitForURL((url) => url.pathname === target.pathname && !url.searchParams.has('code'));
}

export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `../test-results/screens/${name}.png`, fullPage: true });

/**
 * Accessibility violations on the page, as "rule: element" lines. Fluent's focus manager (tabster) adds
 * invisible focus sentinels marked aria-hidden on purpose; they are not content and are left out.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Measured at rest: half-faded text mid-animation would fail contrast for no real reason.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const results = await new AxeBuilder({ page }).exclude('[data-tabster-dummy]').analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}
