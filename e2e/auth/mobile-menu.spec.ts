import { expect } from '@playwright/test';
import { MEMBER, shot, visitSignedIn, test } from '../fixtures.js';

test.use({ viewport: { width: 375, height: 740 } });

test('at 375px the menu is an overlay drawer titled Menu that closes after a choice', async ({ page }) => {
  await visitSignedIn(page, '/', MEMBER);
  const nav = page.getByRole('navigation', { name: 'Account sections' });
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: 'Toggle menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('heading', { name: 'Menu' })).toBeVisible();
  expect(Math.round((await drawer.boundingBox())!.width)).toBe(320);
  // Screenshot once the slide-in has finished.
  await expect.poll(async () => Math.round((await drawer.boundingBox())!.x)).toBe(0);
  await shot(page, 'mobile-menu-open');
  await drawer.getByRole('link', { name: 'Subscriptions' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/#subscriptions$/);
  // The close button closes it too.
  await page.getByRole('button', { name: 'Toggle menu' }).click();
  await page.getByRole('button', { name: 'Close menu' }).click();
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden();
  await shot(page, 'mobile-account-page');
});
