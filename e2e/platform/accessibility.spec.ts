import { expect, type Locator, type Page } from '@playwright/test';
import { accessibilityViolations, ADMIN, MEMBER, shot, visitSignedIn, test } from '../fixtures.js';

// Every screen, and every dialog while it is open, at a desktop and a phone width: no axe violations of any impact
// (serious and critical ones included). Nothing here saves anything: dialogs are closed with Cancel or Close.

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
] as const;

/** Waits until the dialog has finished opening (half-transparent text would fail contrast), then checks the page. */
async function checkOpen(page: Page, dialog: Locator, label: string) {
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await accessibilityViolations(page), label).toEqual([]);
}

async function checkScreen(page: Page, path: string, ready: Locator, label: string) {
  await page.goto(path);
  await expect(ready).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  expect(await accessibilityViolations(page), label).toEqual([]);
  await shot(page, `a11y-${page.viewportSize()?.width}${new URL(page.url()).pathname.replaceAll('/', '-')}`);
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

// The audits only look (every dialog opened is cancelled): they share out between the two lanes (lanes.ts) instead of
// taking two minutes of one.
test.describe.configure({ mode: 'parallel' });

for (const size of WIDTHS) {
  test.describe(`at ${size.width}px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    // Each test audits a dozen screens and dialogs with axe (1.5-2 s each here): more than the 30 s one journey gets.
    test.describe.configure({ timeout: 90_000 });

    test('the sign-in page, the account page and its dialogs', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 10_000 });
      expect(await accessibilityViolations(page), 'sign-in').toEqual([]);

      await visitSignedIn(page, '/', MEMBER);
      await expect(section(page, 'Payment History').getByText('Loading payment history...')).toBeHidden();
      await expect(section(page, 'Subscriptions').getByText('Loading subscriptions...')).toBeHidden();
      expect(await accessibilityViolations(page), 'account').toEqual([]);

      await section(page, 'Personal Information').getByRole('button', { name: 'Edit Full Name' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Personal Information' });
      await checkOpen(page, edit, 'edit personal information');
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await expect(edit).toBeHidden();

      await section(page, 'Subscriptions')
        .getByRole('button', { name: /^Delete subscription / })
        .first()
        .click();
      const remove = page.getByRole('alertdialog', { name: 'Delete subscription?' });
      await checkOpen(page, remove, 'delete subscription');
      await remove.getByRole('button', { name: 'Cancel' }).click();
      await expect(remove).toBeHidden();

      // The Security section loads as it nears the screen; its devices and activity, then its confirmation.
      await section(page, 'Security').scrollIntoViewIfNeeded();
      await expect(section(page, 'Security').getByRole('list', { name: 'Recent activity' })).toBeVisible();
      expect(await accessibilityViolations(page), 'security').toEqual([]);

      if (size.name === 'phone') {
        // The navigation, and the Sign Out entry with it, is in the overlay drawer on a phone.
        await page.getByRole('button', { name: 'Toggle menu' }).click();
        const drawer = page.getByRole('dialog', { name: 'Menu' });
        await expect.poll(async () => Math.round((await drawer.boundingBox())?.x ?? -1)).toBe(0);
        expect(await accessibilityViolations(page), 'menu drawer').toEqual([]);
      }
      await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
      const signOut = page.getByRole('alertdialog', { name: 'Sign Out' });
      await checkOpen(page, signOut, 'sign out');
      await signOut.getByRole('button', { name: 'Cancel' }).click();
      await expect(signOut).toBeHidden();

      await checkScreen(page, '/admin', page.getByRole('heading', { name: 'Access Denied' }), 'access denied');
      await checkScreen(page, '/payment-information', page.getByText('Coming soon'), 'coming soon');
    });

    test('the admin console, its pages and its dialogs', async ({ page }) => {
      await visitSignedIn(page, '/admin', ADMIN);
      await expect(page.getByText('Most promoted products')).toBeVisible();
      // The charts' buttons wait, disabled, for their series: audited once each chart has drawn, not while a button's
      // colours change from disabled to enabled (a run caught them mid-change, in too little contrast).
      const charts = page.locator('section[data-chart]');
      await expect(charts).toHaveCount(3);
      for (const chart of await charts.all()) {
        await expect(chart.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
      }
      expect(await accessibilityViolations(page), 'dashboard').toEqual([]);
      for (const [path, heading] of [
        ['/admin/memberships', 'Memberships'],
        ['/admin/memberships/new', 'New Membership'],
        ['/admin/discount-packages', 'Discount Packages'],
        ['/admin/products', 'Products'],
        ['/admin/promotional-products', 'Promotional Products'],
        ['/admin/settings', 'Settings'],
        ['/admin/members', 'Members'],
        ['/admin/activity', 'Activity'],
      ] as const) {
        await checkScreen(page, path, page.getByRole('heading', { name: heading, level: 1 }), path);
      }

      await page.goto('/admin/memberships');
      await page.getByRole('listitem').getByRole('link').first().click();
      await checkScreen(page, page.url(), page.getByRole('heading', { name: 'Edit Membership' }), 'edit membership');

      await page.goto('/admin/discount-packages');
      await page.getByRole('button', { name: 'Create New Package' }).click();
      const create = page.getByRole('dialog', { name: 'Create Discount Package' });
      await checkOpen(page, create, 'create package');
      await create.getByRole('button', { name: 'Cancel' }).click();
      await expect(create).toBeHidden();

      const card = page.getByRole('listitem').first();
      await card.getByRole('button', { name: /^Edit / }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Discount Package' });
      await checkOpen(page, edit, 'edit package');
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await expect(edit).toBeHidden();

      await card.getByRole('button', { name: 'Manage Products' }).click();
      const manage = page.getByRole('dialog', { name: /^Manage Products: / });
      await checkOpen(page, manage, 'manage products');
      await manage.getByRole('button', { name: 'Add Products' }).click();
      await expect(manage.getByRole('group', { name: 'Products not in this package' })).toBeVisible();
      expect(await accessibilityViolations(page), 'manage products, choosing').toEqual([]);
      await manage.getByRole('button', { name: 'Close' }).click();
      await expect(manage).toBeHidden();
    });
  });
}

test("keyboard focus never rests on one of Fluent's hidden focus sentinels (the one axe finding set aside)", async ({
  page,
}) => {
  await visitSignedIn(page, '/admin/discount-packages', ADMIN);
  await expect(page.getByRole('heading', { name: 'Discount Packages', level: 1 })).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  expect(await page.locator('[data-tabster-dummy]').count()).toBeGreaterThan(0);
  const visited = new Set<string>();
  for (const key of [...Array<string>(40).fill('Tab'), ...Array<string>(40).fill('Shift+Tab')]) {
    await page.keyboard.press(key);
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      return element
        ? { sentinel: element.hasAttribute('data-tabster-dummy'), name: element.outerHTML.slice(0, 80) }
        : null;
    });
    expect(focused?.sentinel, focused?.name).toBe(false);
    if (focused) visited.add(focused.name);
  }
  // The walk went through the page's controls, not round one element.
  expect(visited.size).toBeGreaterThan(10);
});
