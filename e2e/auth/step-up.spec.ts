import { randomBytes } from 'node:crypto';
import { expect } from '@playwright/test';
import { ADMIN, signInOnProviderPage, test } from '../fixtures.js';
import { startProductServer } from '../product-server.js';

/** Sensitive actions on this spec's server want a sign-in at most this old, so a journey can outwait it. */
const MAX_AGE_SECONDS = 6;

let server: Awaited<ReturnType<typeof startProductServer>>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startProductServer({ STEP_UP_MAX_AGE_SECONDS: String(MAX_AGE_SECONDS) });
});
test.afterAll(async () => server?.stop());

test('an administrator signed in longer ago than the step-up age types new groups for a member, signs in again, and saves what they typed', async ({
  page,
}) => {
  const email = `step-up-${randomBytes(4).toString('hex')}@example.com`;
  server.cli('users', 'add', '--email', email, '--password', 'Step-Up-Member-2026', '--first-name', 'Sam');

  await page.goto(`${server.base}/admin/members`);
  await signInOnProviderPage(page, ADMIN);
  await page.waitForURL((url) => url.pathname === '/admin/members' && !url.searchParams.has('code'));
  // The sign-in happened before this moment: from here, waiting the max age makes it too old.
  const signedIn = Date.now();
  // The directory holds the demo history's members too: the new member is found by their address.
  await page.getByRole('searchbox', { name: 'Search members by email or name' }).fill(email);
  await page.getByRole('link', { name: email }).click();
  await expect(page.getByRole('heading', { name: 'Sam', level: 1 })).toBeVisible();
  const memberPage = page.url();

  await page.getByRole('button', { name: 'Change groups' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change groups' });
  await dialog.getByLabel('Groups').fill('Support, Billing');
  // The condition is time itself: a second more than the max age, since `auth_time` is the sign-in's second, cut down.
  await page.waitForTimeout(Math.max(0, signedIn + (MAX_AGE_SECONDS + 1) * 1000 + 200 - Date.now()));
  await dialog.getByRole('button', { name: 'Save' }).click();

  // The provider asks for the password again.
  await signInOnProviderPage(page, ADMIN);
  await page.waitForURL((url) => url.href === memberPage);
  const again = page.getByRole('dialog', { name: 'Change groups' });
  await expect(again.getByRole('status')).toHaveText('You signed in again. Check the groups and press Save to finish.');
  await expect(again.getByLabel('Groups')).toHaveValue('Support, Billing');
  await again.getByRole('button', { name: 'Save' }).click();

  await expect(page.getByRole('status')).toHaveText('Groups saved');
  await expect(again).toBeHidden();
  await expect(page.getByText(`${email} · Groups: Support, Billing`)).toBeVisible();
  expect(server.cli('users', 'list')).toContain(`${email}\tSupport,Billing\t`);
});
