import { expect, type Page } from '@playwright/test';
import { changePassword, MEMBER, shot, signInOnProviderPage, visitSignedIn, test } from '../fixtures.js';

const section = (page: Page, name: string) => page.getByRole('region', { name });

test('the account page shows the four sections with the demo member data', async ({ page }) => {
  await visitSignedIn(page, '/', MEMBER);
  const personal = section(page, 'Personal Information');
  await expect(personal.getByText('Full Name')).toBeVisible();
  await expect(personal.getByText('Loading personal information...')).toBeHidden();
  await expect(section(page, 'Login Details').getByText(MEMBER.email)).toBeVisible();
  await expect(section(page, 'Payment History').getByRole('table', { name: 'Payment History' })).toBeVisible();
  await expect(section(page, 'Subscriptions').getByText('Recurring payments')).toBeVisible();
  await shot(page, 'account-page-full');
});

test('personal information is edited in a dialog and still there after a reload', async ({ page }) => {
  await visitSignedIn(page, '/', MEMBER);
  const personal = section(page, 'Personal Information');
  await personal.getByRole('button', { name: 'Edit Phone Number' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Personal Information' });
  await dialog.getByLabel('First Name').fill('Robin');
  await dialog.getByLabel('Last Name').fill('Castillo');
  await dialog.getByLabel('Biological Sex').selectOption('Female');
  await dialog.getByLabel('Birthdate').fill('4/23/1990');
  await dialog.getByLabel('Birthdate').press('Tab');
  await dialog.getByLabel('Phone Number').fill('(555) 010-2026');
  await dialog.getByLabel('Street Address').fill('12 Elm Street');
  await dialog.getByLabel('City').fill('Portland');
  await dialog.getByLabel('State/Province').fill('OR');
  await dialog.getByLabel('Postal Code').fill('97201');
  await shot(page, 'personal-information-dialog');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(personal.getByText('Robin Castillo')).toBeVisible();

  await page.reload();
  await expect(personal.getByText('Robin Castillo')).toBeVisible();
  await expect(personal.getByText('April 23, 1990')).toBeVisible();
  await expect(personal.getByText('(555) 010-2026')).toBeVisible();
  await expect(personal.getByText('12 Elm Street, Portland, OR, 97201')).toBeVisible();

  // Cancel discards the draft.
  await personal.getByRole('button', { name: 'Edit Full Name' }).click();
  await dialog.getByLabel('First Name').fill('Somebody');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(personal.getByText('Robin Castillo')).toBeVisible();
});

test('a typed date that is not a date says so and cannot be saved', async ({ page }) => {
  await visitSignedIn(page, '/', MEMBER);
  await section(page, 'Personal Information').getByRole('button', { name: 'Edit Birthdate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Personal Information' });
  await dialog.getByLabel('Birthdate').fill('31/31/1990');
  await dialog.getByLabel('Birthdate').press('Tab');
  await expect(dialog.getByText('Enter a date such as 4/23/1990.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
});

test('the password is changed, signs in, and is changed back', async ({ page }) => {
  const next = 'Fresh-Pass-2026!';
  const change = (from: string, to: string) => changePassword(page, from, to);
  await visitSignedIn(page, '/', MEMBER);
  const login = section(page, 'Login Details');
  // A wrong current password is refused with the SPEC's 400 text.
  await login.getByRole('button', { name: 'Change password' }).click();
  await login.getByLabel('Current password').fill('Not-It-2026!');
  await login.getByLabel('New password').fill(next);
  await login.getByLabel('Confirm password').fill(next);
  await login.getByRole('button', { name: 'Reset password' }).click();
  // The SPEC's 400 text, with the request's reference for support beside it (as every error banner has).
  const refused = login.getByRole('alert');
  await expect(refused).toContainText('Current password is incorrect or new password does not meet requirements.');
  await expect(refused).toContainText(/Reference: [0-9a-f-]{36}$/);
  await shot(page, 'login-details-error');
  await login.getByRole('button', { name: 'Cancel' }).click();

  await change(MEMBER.password, next);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 10_000 });
  await page.getByLabel('Email').fill(MEMBER.email);
  await page.getByLabel('Password').fill(MEMBER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('The email or password is incorrect.');
  await signInOnProviderPage(page, { email: MEMBER.email, password: next });
  await page.waitForURL((url) => url.pathname === '/' && !url.search);
  await change(next, MEMBER.password);
});

test('payment history sorts by a column and back', async ({ page }) => {
  await visitSignedIn(page, '/', MEMBER);
  const table = section(page, 'Payment History').getByRole('table');
  const amounts = async () =>
    (await table.getByRole('row').locator('td:nth-child(3)').allTextContents()).map((t) =>
      Number(t.replace(/[$,]/g, '')),
    );
  // Each sort is the server's: the rows are read once the table is no longer busy with the new order.
  const sortBy = async (column: string, direction: 'ascending' | 'descending') => {
    await table.getByRole('columnheader', { name: column }).click();
    await expect(table.getByRole('columnheader', { name: column })).toHaveAttribute('aria-sort', direction);
    await expect(table).not.toHaveAttribute('aria-busy', 'true');
  };
  await expect(table.getByRole('columnheader', { name: 'Date' })).toHaveAttribute('aria-sort', 'descending');
  await sortBy('Amount (USD)', 'ascending');
  const ascending = await amounts();
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  await sortBy('Amount (USD)', 'descending');
  const descending = await amounts();
  expect(descending).toEqual([...ascending].reverse());
  await sortBy('Order#', 'ascending');
  const orders = (await table.getByRole('row').locator('td:nth-child(1)').allTextContents()).map((t) =>
    Number(t.replace('#', '')),
  );
  expect(orders.length).toBeGreaterThan(1);
  expect(orders).toEqual([...orders].sort((a, b) => a - b));
  await shot(page, 'payment-history-sorted');
});

test('a subscription is deleted after confirming and stays gone after a reload', async ({ page }) => {
  await visitSignedIn(page, '/', MEMBER);
  const subscriptions = section(page, 'Subscriptions');
  const cards = subscriptions.getByRole('listitem');
  await expect(cards.first()).toBeVisible();
  const before = await cards.count();
  const deleteButton = subscriptions.getByRole('button', { name: /^Delete subscription / }).first();
  const label = (await deleteButton.getAttribute('aria-label'))!;
  await deleteButton.click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete subscription?' });
  await expect(dialog.getByText("You'll need to buy it again if you change your mind.")).toBeVisible();
  await shot(page, 'subscription-delete-confirm');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(cards).toHaveCount(before - 1);
  await page.reload();
  await expect(subscriptions.getByText('Recurring payments')).toBeVisible();
  await expect(subscriptions.getByRole('button', { name: label })).toHaveCount(0);
});

test.describe('at 375px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('payment history shows cards and the overlay menu jumps to a section', async ({ page }) => {
    await visitSignedIn(page, '/', MEMBER);
    const history = section(page, 'Payment History');
    await expect(history.getByRole('table')).toHaveCount(0);
    const first = history.getByRole('listitem').first();
    await expect(first.getByText('Products')).toBeVisible();
    await expect(first.getByText('Date')).toBeVisible();
    await expect(first.getByText('Status')).toBeVisible();
    await page.getByRole('button', { name: 'Toggle menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Payment History' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden();
    await expect(history).toBeInViewport();
    await shot(page, 'mobile-payment-history');
  });
});
