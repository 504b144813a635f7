import { expect, type Page } from '@playwright/test';
import { ADMIN, shot, visitSignedIn, test } from '../fixtures.js';

const cardOf = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

test('an administrator changes a package price, finds the change in its History and reverts it', async ({ page }) => {
  const name = `E2E Audited ${Date.now()}`;
  await visitSignedIn(page, '/admin/discount-packages', ADMIN);
  await page.getByRole('button', { name: 'Create New Package' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill(name);
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await cardOf(page, name).getByRole('button', { name: 'Manage Products' }).click();
  const manage = page.getByRole('dialog', { name: `Manage Products: ${name}` });
  await manage.getByRole('button', { name: 'Add Products' }).click();
  await manage.getByRole('checkbox', { name: /^Lipid Panel \(/ }).check();
  await manage.getByRole('button', { name: 'Add 1 product' }).click();
  const price = manage.getByLabel('Package price for Lipid Panel');
  const row = manage.getByRole('row', { name: /Lipid Panel/ });
  // Two saves within the minute: one entry, from no price to the last one typed.
  await price.fill('29.5');
  await expect(row).toContainText('Saved', { timeout: 5000 });
  await price.fill('31');
  await expect(row).toContainText('Saving...');
  await expect(row).toContainText('Saved', { timeout: 5000 });
  await manage.getByRole('button', { name: 'Close' }).click();
  await expect(cardOf(page, name)).toContainText('Lipid Panel: $31.00');

  await cardOf(page, name)
    .getByRole('link', { name: `History of ${name}` })
    .click();
  await expect(page).toHaveURL(/\/admin\/activity\?entity=discount-package&entityId=\d+$/);
  await expect(page.getByText(`History of ${name}`)).toBeVisible();
  const entries = page.getByRole('list', { name: 'Activity' }).getByRole('listitem');
  await expect(entries).toHaveCount(3);
  const change = entries.filter({ has: page.getByRole('heading', { name: `Changed a package price: ${name}` }) });
  await expect(change).toContainText(`by ${ADMIN.email}`);
  await expect(change.getByRole('row', { name: /Package price of Lipid Panel/ })).toContainText(
    /No package price\s*\$31\.00/,
  );
  await shot(page, 'admin-activity');

  await change.getByRole('button', { name: 'Revert' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revert this change?' });
  await confirm.getByRole('button', { name: 'Revert' }).click();
  await expect(confirm).toBeHidden();
  await expect(entries).toHaveCount(4);
  const revert = entries.first();
  await expect(revert.getByRole('heading')).toHaveText(`Reverted a change: ${name}`);
  await expect(revert).toContainText('Reverts change #');
  await expect(revert.getByRole('row', { name: /Package price of Lipid Panel/ })).toContainText(
    /\$31\.00\s*No package price/,
  );
  await expect(change).toContainText('Reverted');
  await expect(change.getByRole('button', { name: 'Revert' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Discount Packages' }).click();
  await expect(cardOf(page, name)).toContainText('Lipid Panel: No price set');
});
