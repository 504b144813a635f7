import { expect, test } from '@playwright/test';

test('readiness reports the database', async ({ request }) => {
  const response = await request.get('/api/ready');
  expect(await response.json()).toEqual({ status: 'ready', database: 'up' });
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

test('the terms and privacy pages are served without signing in', async ({ page }) => {
  await page.goto('/legal/terms.html');
  await expect(page.getByRole('heading', { name: 'Terms and Conditions' })).toBeVisible();
  await page.goto('/legal/privacy.html');
  await expect(page.getByRole('heading', { name: 'Privacy Policy' })).toBeVisible();
});
