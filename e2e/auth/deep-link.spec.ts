import { expect } from '@playwright/test';
import { MEMBER, shot, signInOnProviderPage, test } from '../fixtures.js';

test('a deep link while signed out goes through sign-in and comes back with its query and hash', async ({ page }) => {
  await page.goto('/subscriptions?view=all#recent');
  await signInOnProviderPage(page, MEMBER);
  await page.waitForURL((url) => url.pathname === '/subscriptions');
  const url = new URL(page.url());
  expect(url.search).toBe('?view=all');
  expect(url.hash).toBe('#recent');
  // The section's address opens the account page at that section, its drawer entry marked.
  await expect(page.getByRole('heading', { name: 'Subscriptions', level: 2 })).toBeInViewport();
  const nav = page.getByRole('navigation', { name: 'Account sections' });
  await expect(nav.getByRole('link', { name: 'Subscriptions' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('Coming soon')).toHaveCount(0);
  // The code and state are gone from the address and the stored path is used up.
  expect(await page.evaluate(() => sessionStorage.getItem('ums.redirect-path'))).toBeNull();
  await shot(page, 'deep-link-after-sign-in');
});

test('the account area has its own navigation and the footer links open in a new tab', async ({ page }) => {
  await page.goto('/');
  await signInOnProviderPage(page, MEMBER);
  await page.waitForURL((url) => url.pathname === '/' && !url.search);
  const nav = page.getByRole('navigation', { name: 'Account sections' });
  for (const label of ['Personal Information', 'Login Details', 'Payment History', 'Subscriptions', 'Security']) {
    await expect(nav.getByRole('link', { name: label })).toBeVisible();
  }
  await expect(nav.getByRole('link', { name: 'Personal Information' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Memberships' })).toHaveCount(0);
  await expect(page.getByRole('banner')).toContainText('My Account');
  const terms = page.getByRole('link', { name: 'Terms and Conditions' });
  await expect(terms).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('contentinfo')).toContainText(
    `© ${new Date().getFullYear()} UMS Health. All rights reserved.`,
  );
  // The drawer collapses and opens again from the header's menu toggle.
  const toggle = page.getByRole('button', { name: 'Toggle menu' });
  await toggle.click();
  await expect(nav).toBeHidden();
  await toggle.click();
  await expect(nav).toBeVisible();
  await shot(page, 'account-page');
});
