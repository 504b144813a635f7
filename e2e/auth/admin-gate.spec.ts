import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { ADMIN, MEMBER, shot, visitSignedIn, test } from '../fixtures.js';

test('a member sees Access Denied at /admin', async ({ page }) => {
  await visitSignedIn(page, '/admin', MEMBER);
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText("You need to be in the 'Admin' group to access this area.")).toBeVisible();
  await shot(page, 'admin-access-denied');
});

test('a member never downloads the admin console code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await visitSignedIn(page, '/', MEMBER);
  await expect(page.getByRole('navigation', { name: 'Account sections' })).toBeVisible();
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  // Each area's chunk as the build named it (the lazily loaded features/<area>/index.ts).
  const manifest = JSON.parse(
    readFileSync(new URL('../../apps/web/dist/.vite/manifest.json', import.meta.url), 'utf8'),
  ) as Record<string, { file: string }>;
  const chunk = (area: string) => `/${manifest[`src/features/${area}/index.ts`]!.file}`;
  expect(scripts.some((url) => new URL(url).pathname === chunk('account'))).toBe(true);
  expect(scripts.filter((url) => new URL(url).pathname === chunk('admin'))).toEqual([]);
});

test('an admin sees the dashboard with its own navigation', async ({ page }) => {
  await visitSignedIn(page, '/admin', ADMIN);
  await expect(page.getByRole('heading', { name: 'User Management System' })).toBeVisible();
  await expect(page.getByText('Admin Dashboard')).toBeVisible();
  for (const tab of ['Overview', 'Memberships', 'Discount Packages']) {
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  }
  await expect(page.getByRole('banner')).toContainText('UMS Admin');
  const nav = page.getByRole('navigation', { name: 'Admin console' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(nav.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', 'page');
  await page.goBack();
  await shot(page, 'admin-dashboard');
});
