import { expect, test } from '@playwright/test';
import { ADMIN, visitSignedIn } from '../fixtures.js';

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
  await page.getByLabel('Membership', { exact: true }).selectOption({ label: 'Basic Health' });
  await expect(page).toHaveURL(/[?&]membership=\d+/);
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
