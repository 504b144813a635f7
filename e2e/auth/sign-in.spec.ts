import { expect } from '@playwright/test';
import { authorizeUrl, pkce } from '@ums/testkit/oidc-browser';
import { test } from '../fixtures.js';

/** An authorization-code + PKCE request as the web app makes it, as a path on the server under test. */
function authorizePath(baseURL: string) {
  const url = new URL(authorizeUrl(baseURL, pkce().challenge, { state: 'e2e-state' }));
  return `${url.pathname}${url.search}`;
}

test('the embedded provider signs the demo member in and returns a code to the web app', async ({ page, baseURL }) => {
  await page.goto(authorizePath(baseURL!));
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // The brand fonts are served by the product itself.
  const loaded = (family: string) =>
    page.evaluate(
      (name) => [...document.fonts].some((f) => f.family.replaceAll('"', '') === name && f.status === 'loaded'),
      family,
    );
  await expect.poll(() => loaded('Antonio')).toBe(true);
  await expect.poll(() => loaded('Figtree')).toBe(true);
  await page.screenshot({ path: '../test-results/sign-in-page.png', fullPage: true });
  await page.getByLabel('Email').fill('member@example.com');
  await page.getByLabel('Password').fill('Member-Demo-2026');
  // The request the provider's redirect makes, not the page's address afterwards: the web app handles the callback at
  // once (this test's state is none of its own) and moves on.
  const callback = page.waitForRequest((request) => /\/auth\/callback\?code=/.test(request.url()));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  expect(new URL((await callback).url()).searchParams.get('state')).toBe('e2e-state');
});

test('a wrong password shows one message that does not say which part was wrong', async ({ page, baseURL }) => {
  await page.goto(authorizePath(baseURL!));
  await page.getByLabel('Email').fill('member@example.com');
  await page.getByLabel('Password').fill('Not-The-Password-1');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('The email or password is incorrect.');
  await expect(page.getByLabel('Email')).toHaveValue('member@example.com');
  await page.screenshot({ path: '../test-results/sign-in-error.png', fullPage: true });
});
