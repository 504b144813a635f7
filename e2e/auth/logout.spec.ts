import { expect } from '@playwright/test';
import { MEMBER, shot, signInOnProviderPage, visitSignedIn, test } from '../fixtures.js';

const authEntries = () =>
  [sessionStorage, localStorage].flatMap((store) =>
    Object.keys(store).filter((key) => /oidc|cognito|auth|accessToken/i.test(key)),
  );

test('Logout clears storage, shows the progress and lands on the provider sign-in page', async ({ page }) => {
  await visitSignedIn(page, '/', MEMBER);
  await page.evaluate(() => localStorage.setItem('cognito_access_token', 'stale'));
  expect((await page.evaluate(authEntries)).length).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/logout-complete\?source=ums-client$/);
  await expect(page.getByText('User Management System')).toBeVisible();
  await expect(page.getByText('1 of 1 applications')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Logout Complete' })).toBeVisible();
  await expect(page.getByText('You have been successfully logged out of all applications.')).toBeVisible();
  await expect(page.getByText('Redirecting to sign in page...')).toBeVisible();
  expect(await page.evaluate(authEntries)).toEqual([]);
  await shot(page, 'logout-complete');
  // After 2 s the provider signs the session out and the app sends the visitor to sign in again.
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 10_000 });
  expect(new URL(page.url()).pathname).toMatch(/^\/oidc\/interaction\//);
  // The provider session is gone too: signing in asks for the password again.
  await signInOnProviderPage(page, MEMBER);
  await page.waitForURL((url) => url.pathname === '/' && !url.search);
});

test('the Sign Out entry asks first; Cancel keeps the session, Sign Out starts the logout', async ({ page }) => {
  await visitSignedIn(page, '/', MEMBER);
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Sign Out' });
  await expect(dialog.getByText('Are you sure you want to sign out?')).toBeVisible();
  await shot(page, 'sign-out-dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Sign Out', exact: true }).click();
  await expect(page).toHaveURL(/\/logout-complete\?source=ums-client$/);
  await expect(page.getByRole('heading', { name: 'Logout Complete' })).toBeVisible();
  // The redirect follows by itself after 2 s; "Go to Sign In Now" doing it at once is proved in the page's unit
  // test (a click here would race the timer on a loaded machine and wait for a button already gone).
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 10_000 });
});

test('a link to the sign-out screen from elsewhere signs nobody out: it asks, and "Stay signed in" keeps the session', async ({
  page,
}) => {
  await visitSignedIn(page, '/', MEMBER);
  const before = await page.evaluate(authEntries);
  // As a link in another site or a mail would open it: not through the app's own sign-out.
  await page.goto('/logout-complete?source=ums-client');
  await expect(page.getByText('Do you want to sign out of your membership account?')).toBeVisible();
  // Nothing was cleared while it asks (that no timer signs out later is the screen's unit test).
  expect(await page.evaluate(authEntries)).toEqual(before);
  await page.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  expect(await page.evaluate(authEntries)).toEqual(before);

  await page.goto('/logout-complete');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Logout Complete' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 10_000 });
});
