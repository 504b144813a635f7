import { readFile } from 'node:fs/promises';
import { expect } from '@playwright/test';
import { ADMIN, visitSignedIn, test } from '../fixtures.js';

test('the catalog is searchable and refreshes from its source', async ({ page }) => {
  await visitSignedIn(page, '/admin/products', ADMIN);
  const table = page.getByRole('table', { name: 'Products' });
  await expect(table.getByRole('row')).toHaveCount(13);
  await page.getByRole('searchbox', { name: 'Search products' }).fill('panel');
  await expect(table.getByRole('row', { name: /Lipid Panel/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Hemoglobin A1c/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('status')).toContainText('Catalog refreshed: 0 added, 12 updated');
});

test('promotional products are listed by membership and filtered', async ({ page }) => {
  await visitSignedIn(page, '/admin/promotional-products', ADMIN);
  const table = page.getByRole('table', { name: 'Promotional Products' });
  await expect(table).toBeVisible();
  const all = await table.getByRole('row').count();
  // The choice lives in the address: the radio shows as chosen once the address has it.
  const basicHealth = page
    .getByRole('radiogroup', { name: /^Membership/ })
    .getByRole('radio', { name: 'Basic Health' });
  await basicHealth.click();
  await expect(page).toHaveURL(/[?&]membership=\d+/);
  await expect(basicHealth).toBeChecked();
  // Only Basic Health's links once the server has answered for it.
  await expect
    .poll(async () => [...new Set(await table.locator('tbody tr td:first-child').allTextContents())])
    .toEqual(['Basic Health']);
  expect(await table.getByRole('row').count()).toBeLessThan(all);
});

test('the dashboard overview shows real figures', async ({ page }) => {
  await visitSignedIn(page, '/admin', ADMIN);
  const figures = page.getByRole('list', { name: 'Figures' });
  await expect(figures.getByRole('listitem').filter({ hasText: 'Products' })).toContainText('12');
  await expect(page.getByRole('heading', { name: 'Most promoted products' })).toBeVisible();
  await page.getByRole('tab', { name: 'Discount Packages' }).click();
  await expect(page.getByRole('heading', { name: 'Essentials Savings' })).toBeVisible();
  await page.getByRole('tab', { name: 'Memberships' }).click();
  await expect(page.getByRole('heading', { name: 'Basic Health' })).toBeVisible();
});

test('an administrator exports the searched catalog and the member directory as CSV', async ({ page }) => {
  await visitSignedIn(page, '/admin/products?q=panel&sort=-retailPrice', ADMIN);
  await expect(page.getByRole('table', { name: 'Products' }).getByRole('row', { name: /Lipid Panel/ })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile(await download.path(), 'utf8')).split('\r\n');
  expect(lines[0]).toBe('productId,name,retailPrice,imageUrl');
  const rows = lines.slice(1, -1);
  expect(rows.length).toBeGreaterThan(1);
  for (const row of rows) expect(row.toLowerCase()).toContain('panel');
  const prices = rows.map((row) => Number(row.split(',').at(-2)));
  expect(prices).toEqual([...prices].sort((a, b) => b - a));

  await page.goto('/admin/members');
  const [members] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const directory = await readFile(await members.path(), 'utf8');
  expect(directory.split('\r\n')[0]).toBe(
    'id,email,firstName,lastName,groups,createdAt,emailVerified,deletionPendingUntil',
  );
  expect(directory).toContain(',admin@example.com,');
});
