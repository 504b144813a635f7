import { expect } from '@playwright/test';
import { test } from '../fixtures.js';

test('readiness reports the database', async ({ request }) => {
  const response = await request.get('/api/ready');
  expect(await response.json()).toEqual({ status: 'ready', database: 'up' });
});

test('API calls without a token are refused with the envelope', async ({ request }) => {
  const response = await request.get('/api/membership');
  expect(response.status()).toBe(401);
  expect(await response.json()).toMatchObject({ isError: true, data: [] });
});

test("the API documentation page opens and works under the app's content security policy", async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const response = await page.goto('/api/docs');
  expect(response?.headers()['content-security-policy']).toContain("require-trusted-types-for 'script'");
  await expect(page.getByText('UMS API').first()).toBeVisible();
  await page.getByRole('button', { name: /^GET \/api\/health/ }).click();
  await expect(page.getByText('The process is up').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try it out' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('the terms and privacy pages are served without signing in', async ({ page }) => {
  await page.goto('/legal/terms.html');
  await expect(page.getByRole('heading', { name: 'Terms and Conditions' })).toBeVisible();
  await page.goto('/legal/privacy.html');
  await expect(page.getByRole('heading', { name: 'Privacy Policy' })).toBeVisible();
});
