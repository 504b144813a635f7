import { expect, type Page } from '@playwright/test';
import { ADMIN, shot, visitSignedIn, test } from '../fixtures.js';

const promo = (page: Page) => page.getByRole('group', { name: 'Promotional Products' });

test('a membership is created with 5 promotional products, then edited: 2 removed, 1 added', async ({ page }) => {
  const name = `E2E Membership ${Date.now()}`;
  await visitSignedIn(page, '/admin/memberships', ADMIN);
  await page.getByRole('button', { name: 'Create New Membership' }).click();
  await expect(page).toHaveURL(/\/admin\/memberships\/new$/);

  // Required fields first.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Product is required')).toBeVisible();

  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Description').fill('Created by the browser journey');
  // Product and Discount Package are chosen from the server's pages (radio buttons under a search box).
  await page
    .getByRole('radiogroup', { name: /^Product/ })
    .getByRole('radio', { name: 'Heart Health Panel ($129.00)' })
    .check();
  await page
    .getByRole('radiogroup', { name: /^Discount Package/ })
    .getByRole('radio', { name: 'Essentials Savings' })
    .check();
  await page.getByLabel('Number of Free Eligible Items').fill('2');
  await page.getByLabel('Membership Length (Months)').fill('500');
  for (const product of [
    'Complete Blood Count',
    'Lipid Panel',
    'Hemoglobin A1c',
    'Omega-3 Index',
    'Kidney Function Panel',
  ]) {
    await promo(page)
      .getByRole('checkbox', { name: new RegExp(`^${product.replace(/[()]/g, '\\$&')} \\(`) })
      .check();
  }
  await expect(page.getByText('5 selected')).toBeVisible();
  await shot(page, 'admin-membership-form');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/admin\/memberships$/);

  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
  await expect(card).toContainText('Heart Health Panel (#1011)');
  await expect(card).toContainText('Essentials Savings');
  // An invalid length falls back to 12.
  await expect(card).toContainText('12 months');
  await expect(card).toContainText('5 promotional products');
  await expect(card).toContainText('... and 2 more');
  await shot(page, 'admin-memberships');

  await card.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Edit Membership' })).toBeVisible();
  await expect(page.getByText('5 selected')).toBeVisible();
  await promo(page)
    .getByRole('checkbox', { name: /^Lipid Panel \(/ })
    .uncheck();
  await promo(page)
    .getByRole('checkbox', { name: /^Omega-3 Index \(/ })
    .uncheck();
  await promo(page)
    .getByRole('checkbox', { name: /^Iron and Ferritin Panel \(/ })
    .check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/admin\/memberships$/);

  await page.reload();
  await card.getByRole('link', { name, exact: true }).click();
  await expect(page.getByText('4 selected')).toBeVisible();
  // The picker's rows come from the catalog search after the count: wait for them before reading them.
  await expect(promo(page).getByRole('checkbox', { checked: true })).toHaveCount(4);
  const checked = await promo(page)
    .getByRole('checkbox', { checked: true })
    .evaluateAll((boxes) => boxes.map((box) => box.closest('span, div')?.textContent?.replace(/ \(\$[\d.,]+\)$/, '')));
  expect(checked.sort()).toEqual([
    'Complete Blood Count',
    'Hemoglobin A1c',
    'Iron and Ferritin Panel',
    'Kidney Function Panel',
  ]);
  await expect(page.getByLabel('Membership Length (Months)')).toHaveValue('12');
  await expect(page.getByLabel('Number of Free Eligible Items')).toHaveValue('2');
});

test('the promotional products checklist is at most 400px high and scrolls past it (SPEC section 2)', async ({
  page,
}) => {
  await visitSignedIn(page, '/admin/memberships/new', ADMIN);
  // The checklist itself: the innermost of the groups so named (the form's fieldset carries the same legend).
  const checklist = promo(page).last();
  await expect(checklist.getByRole('checkbox').first()).toBeVisible();
  await expect(checklist).toHaveCSS('max-height', '400px');
  await expect(checklist).toHaveCSS('overflow-y', 'auto');
});
