import { expect, test } from '@playwright/test';

test('the product serves its web app and reports the database ready', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'User Management System' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('API and database: ready');
  await page.screenshot({ path: '../test-results/status-page.png', fullPage: true });
});

test('API calls without a token are refused with the envelope', async ({ request }) => {
  const response = await request.get('/api/membership');
  expect(response.status()).toBe(401);
  expect(await response.json()).toMatchObject({ isError: true, data: [] });
});

test('the API documentation page opens', async ({ page }) => {
  await page.goto('/api/docs');
  await expect(page.getByText('UMS API').first()).toBeVisible();
});
