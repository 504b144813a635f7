import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { ACCOUNT_DELETION_TEXTS as D } from '@ums/contracts/self-service/account-deletion';
import { MY_DATA_TEXTS } from '@ums/contracts/self-service/my-data';
import { RECEIPT_ACTIONS } from '@ums/contracts/self-service/receipts';
import {
  accessibilityViolations,
  ADMIN,
  cli,
  mailTo,
  MEMBER,
  shot,
  signInOnProviderPage,
  visitSignedIn,
  test,
} from '../fixtures.js';

/** Clicks what starts a download and answers the saved file's name and contents. */
async function downloaded(page: Page, start: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), start()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: await readFile(file) };
}

test('a cold tab opens /payment-history at that section, and the member downloads a receipt, a year of them and their data', async ({
  page,
}) => {
  await page.goto('/payment-history');
  await signInOnProviderPage(page, MEMBER);
  await page.waitForURL((url) => url.pathname === '/payment-history' && !url.searchParams.has('code'));
  const section = page.getByRole('heading', { name: 'Payment History', level: 2 });
  await expect(section).toBeInViewport();
  const nav = page.getByRole('navigation', { name: 'Account sections' });
  await expect(nav.getByRole('link', { name: 'Payment History' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('Coming soon')).toHaveCount(0);

  const table = page.getByRole('table', { name: 'Payment History' });
  const firstOrder = (await table.getByRole('row').nth(1).getByRole('cell').first().textContent())!.replace('#', '');
  const receipt = await downloaded(page, () =>
    table.getByRole('button', { name: RECEIPT_ACTIONS.actionLabel(Number(firstOrder)) }).click(),
  );
  expect(receipt.name).toBe(`receipt-${firstOrder}.pdf`);
  expect(receipt.bytes.subarray(0, 5).toString()).toBe('%PDF-');

  const year = page.getByRole('button', { name: /^Download all receipts for \d{4}$/ }).first();
  const yearNumber = Number((await year.textContent())!.slice(-4));
  const yearly = await downloaded(page, () => year.click());
  expect(yearly.name).toBe(`receipts-${yearNumber}.pdf`);
  expect(yearly.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  await shot(page, 'payment-history-receipts');

  await page.getByRole('heading', { name: 'Personal Information', level: 2 }).scrollIntoViewIfNeeded();
  const data = await downloaded(page, () => page.getByRole('button', { name: MY_DATA_TEXTS.action }).click());
  expect(data.name).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(data.bytes.toString()) as {
    account: { email: string };
    orders: { orderId: number }[];
    sessions: { current: boolean }[];
  };
  expect(exported.account.email).toBe(MEMBER.email);
  expect(exported.orders.map((o) => String(o.orderId))).toContain(firstOrder);
  expect(exported.sessions.filter((s) => s.current)).toHaveLength(1);
});

test('a member closes their account, is signed out, support sees it pending, and the member keeps it by signing in again', async ({
  page,
  browser,
}) => {
  const email = `leaving-${Date.now()}@example.com`;
  const password = 'Leaving-Pass-2026!';
  cli('users', 'add', '--email', email, '--password', password, '--first-name', 'Robin');

  await page.goto('/personal-information');
  await signInOnProviderPage(page, { email, password });
  await page.getByRole('button', { name: D.action }).click();
  const dialog = page.getByRole('dialog', { name: D.title });
  await expect(dialog).toContainText(D.explain(30));
  expect(await accessibilityViolations(page)).toEqual([]);
  await dialog.getByLabel(D.password).fill('Not-My-Password-1!');
  await dialog.getByRole('button', { name: D.confirm }).click();
  await expect(dialog.getByText(D.wrongPassword)).toBeVisible();
  await dialog.getByLabel(D.password).fill(password);
  await dialog.getByRole('button', { name: D.confirm }).click();

  // Signed out: the logout page, then the provider's sign-in.
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 15_000 });
  const mail = await mailTo(email, D.mailSubject);
  expect(mail).toContain('will be deleted on');

  // Support sees the pending deletion in the member directory, and the member's own page.
  const support = await (await browser.newContext()).newPage();
  await visitSignedIn(support, `/admin/members?q=${encodeURIComponent(email)}`, ADMIN);
  const directory = support.getByRole('table', { name: 'Members' });
  const row = directory.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText(/Deletion pending: \w{3} \d{1,2}, \d{4}/);
  await row.getByRole('link', { name: email }).click();
  await expect(support.getByRole('heading', { name: 'Robin', level: 1 })).toBeVisible();
  await support.getByRole('tab', { name: 'Activity' }).click();
  await expect(support.getByRole('table', { name: 'Activity' })).toContainText('Signed in');
  expect(await accessibilityViolations(support)).toEqual([]);
  await shot(support, 'admin-member-page');

  // Signing in again asks first; the member keeps the account and is back in it.
  await signInOnProviderPage(page, { email, password });
  await expect(page.getByRole('heading', { name: D.pageTitle })).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);
  await shot(page, 'account-deletion-pending');
  await page.getByRole('button', { name: D.keep }).click();
  await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await mailTo(email, D.cancelledMailSubject);

  // Nothing is pending any more: the next purge leaves the account alone.
  expect(cli('purge').trim()).toBe('No closed account is due for deletion.');
  expect(cli('users', 'list')).toContain(email);
});

test('an administrator finds a member in the directory and signs them out everywhere', async ({ page, browser }) => {
  const member = await (await browser.newContext()).newPage();
  await visitSignedIn(member, '/', MEMBER);

  await visitSignedIn(page, '/admin', ADMIN);
  await page
    .getByRole('navigation', { name: 'Admin console' })
    .getByRole('link', { name: 'Members', exact: true })
    .click();
  await page.getByRole('searchbox', { name: 'Search members by email or name' }).fill('member@');
  await expect(page).toHaveURL(/\/admin\/members\?q=member%40/);
  const table = page.getByRole('table', { name: 'Members' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await table.getByRole('link', { name: MEMBER.email }).click();
  // The member's page: headed by their name as Personal Information holds it (other journeys edit it), then the email.
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Members');
  await expect(page.getByText(`${MEMBER.email} · Groups: None`)).toBeVisible();
  await page.getByRole('tab', { name: 'Orders' }).click();
  await expect(page.getByRole('table', { name: 'Orders' })).toContainText('Complete Blood Count');

  await page.getByRole('button', { name: 'End all sessions' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'End all sessions?' });
  await dialog.getByRole('button', { name: 'End all sessions' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Every session of the member has ended' })).toBeVisible();

  // The member's next call is refused: they are sent to sign in.
  await member.reload();
  await expect(member.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 15_000 });
});
