import { execFileSync } from 'node:child_process';
import path from 'node:path';
import axe from 'axe-core';
import { test as base, expect, type CDPSession, type Locator, type Page } from '@playwright/test';
import { dpopHeaders, signIn } from '@ums/testkit/oidc-browser';
import { currentLane, laneDataDir, lanePort } from './lanes.js';

/** Playwright's test, with every page and context of a journey going to its lane's own server (lanes.ts). */
export const test = base.extend({
  baseURL: async ({ baseURL }, use) => {
    const url = new URL(baseURL!);
    url.port = String(lanePort(currentLane()));
    await use(url.origin);
  },
});

/** The data folder of this journey's server: its embedded database, its outbox. */
export const serverDataDir = () => laneDataDir(currentLane());

/** The demo accounts the e2e server is started with (playwright.config.ts). */
export const MEMBER = { email: 'member@example.com', password: 'Member-Demo-2026' };
export const ADMIN = { email: 'admin@example.com', password: 'Admin-Demo-2026' };

/** Fills the embedded provider's sign-in page, which the app has already redirected to. */
export async function signInOnProviderPage(page: Page, account: { email: string; password: string }) {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(new URL(page.url()).pathname).toMatch(/^\/oidc\/interaction\//);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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
 * Waits until an element's animations (its own and its descendants') are over, as a dialog's fade-in before axe reads
 * its colours. An animation cancelled on the way is over too, though its `finished` rejects (AbortError).
 */
export async function animationsDone(element: Locator): Promise<void> {
  await element.evaluate((el) =>
    Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))),
  );
}

/** Accessibility violations on the page (axe, every rule and impact), as "rule (impact): element" lines. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Measured at rest: half-faded text mid-animation would fail contrast for no real reason.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  // axe-core is put into the page once per page load and run there, instead of evaluated again for every audit and
  // finished in a blank page of its own (@axe-core/playwright's way): the audits took a third less time. Frames are
  // not audited: the app's only frames are the hidden ones that renew a sign-in or sign out, with nothing to read.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, { iframes: false }),
  );
  return results.violations.flatMap((v) =>
    v.nodes
      .filter((n) => !tabsterFocusSentinel(v.id, n.html))
      .map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}`),
  );
}

/**
 * Fluent UI's focus management (Tabster) puts focusable, aria-hidden <i data-tabster-dummy> sentinels around focus
 * groups: focus landing on one is moved on at once, and aria-hidden keeps screen readers from announcing it. axe's
 * aria-hidden-focus rule flags them; Fluent lists this as a known false positive (microsoft/tabster#288) and
 * Microsoft's Accessibility Insights suppresses exactly this pair. Only this rule on only these elements is set aside.
 */
function tabsterFocusSentinel(rule: string, html: string): boolean {
  return rule === 'aria-hidden-focus' && /^<i [^>]*data-tabster-dummy=""/.test(html);
}

/** Changes the password in the account page's Login Details and waits for the form to close again. */
export async function changePassword(page: Page, current: string, next: string) {
  const login = page.getByRole('region', { name: 'Login Details' });
  await login.getByRole('button', { name: 'Change password' }).click();
  await login.getByLabel('Current password').fill(current);
  await login.getByLabel('New password').fill(next);
  await login.getByLabel('Confirm password').fill(next);
  await login.getByRole('button', { name: 'Reset password' }).click();
  await expect(login.getByText('Password changed')).toBeVisible();
  // After 3 s the form closes.
  await expect(login.getByLabel('Current password')).toBeHidden({ timeout: 6000 });
}

/** The operator's CLI on the running server's data: accounts, and the mail it wrote to its outbox folder. */
export const cli = (...args: string[]) =>
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../scripts/cli.mjs'), ...args], {
    env: { ...process.env, DATA_DIR: serverDataDir(), LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });

/** The newest delivered message to this address with this subject, as `mail show` prints it. */
export async function mailTo(email: string, subject: string): Promise<string> {
  let number: string | undefined;
  await expect(async () => {
    const lines = cli('mail', 'list').split('\n');
    number = lines
      .filter((line) => line.includes(`\t${email}\t${subject}`))
      .at(-1)
      ?.split('\t')[0];
    expect(number).toBeDefined();
  }).toPass({ timeout: 15_000 });
  return cli('mail', 'show', number!);
}

/**
 * A new member's own API calls, made as the web app makes them (signed in through the provider, each call with a
 * DPoP proof): a POST answering 200, and the first item of its envelope. For setting up what a journey starts from.
 */
export async function memberApi(base: string, email: string, password: string) {
  cli('users', 'add', '--email', email, '--password', password);
  const { access_token } = await signIn(base, email, password);
  return async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const url = `${base}${path}`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...dpopHeaders(access_token, 'POST', url), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: Record<string, unknown>[] }).data[0]!;
  };
}

/**
 * The device's platform authenticator in Chromium (CDP WebAuthn domain, enabled on `cdp` first): it keeps discoverable
 * credentials and verifies its user every time. Answers its id.
 */
export async function platformAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}
