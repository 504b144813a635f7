import { expect, type Page } from '@playwright/test';
import { ADMIN, shot, visitSignedIn, test } from '../fixtures.js';

const cardOf = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

test('a discount package is created, edited and deleted after the browser confirm', async ({ page }) => {
  const name = `E2E Package ${Date.now()}`;
  await visitSignedIn(page, '/admin/discount-packages', ADMIN);
  await page.getByRole('button', { name: 'Create New Package' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Discount Package' });
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Description').fill('First description');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(cardOf(page, name)).toContainText('First description');
  await expect(cardOf(page, name)).toContainText('0 products');

  await cardOf(page, name)
    .getByRole('button', { name: `Edit ${name}` })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit Discount Package' });
  await expect(edit.getByLabel('Name')).toHaveValue(name);
  await edit.getByLabel('Description').fill('Second description');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(cardOf(page, name)).toContainText('Second description');

  let asked = '';
  page.once('dialog', (confirm) => {
    asked = confirm.message();
    void confirm.accept();
  });
  await cardOf(page, name)
    .getByRole('button', { name: `Delete ${name}` })
    .click();
  await expect(cardOf(page, name)).toHaveCount(0);
  expect(asked).toBe(`Are you sure you want to delete "${name}"?`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Essentials Savings' })).toBeVisible();
  await expect(cardOf(page, name)).toHaveCount(0);
});

test('package prices save after a pause, clear to null, and products are added and removed', async ({ page }) => {
  const name = `E2E Prices ${Date.now()}`;
  await visitSignedIn(page, '/admin/discount-packages', ADMIN);
  await page.getByRole('button', { name: 'Create New Package' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill(name);
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(cardOf(page, name)).toBeVisible();

  const open = async () => {
    await cardOf(page, name).getByRole('button', { name: 'Manage Products' }).click();
    return page.getByRole('dialog', { name: `Manage Products: ${name}` });
  };
  let manage = await open();
  await expect(manage.getByText('No products in this package yet.')).toBeVisible();
  await manage.getByRole('button', { name: 'Add Products' }).click();
  await manage.getByRole('checkbox', { name: /^Lipid Panel \(/ }).check();
  await manage.getByRole('checkbox', { name: /^Hemoglobin A1c \(/ }).check();
  await manage.getByRole('button', { name: 'Add 2 products' }).click();
  const price = manage.getByLabel('Package price for Lipid Panel');
  await expect(price).toBeVisible();
  await expect(price).toHaveAttribute('placeholder', 'No price set');

  await price.fill('29.5');
  await expect(manage.getByRole('row', { name: /Lipid Panel/ })).toContainText('Saving...');
  await expect(manage.getByRole('row', { name: /Lipid Panel/ })).toContainText('Saved', { timeout: 5000 });
  await shot(page, 'admin-manage-products');
  await manage.getByRole('button', { name: 'Close' }).click();
  await expect(cardOf(page, name)).toContainText('Lipid Panel: $29.50');

  await page.reload();
  manage = await open();
  await expect(manage.getByLabel('Package price for Lipid Panel')).toHaveValue('29.50');
  await manage.getByLabel('Package price for Lipid Panel').fill('');
  await expect(manage.getByRole('row', { name: /Lipid Panel/ })).toContainText('Saved', { timeout: 5000 });
  await manage.getByRole('button', { name: 'Remove Hemoglobin A1c' }).click();
  await expect(manage.getByLabel('Package price for Hemoglobin A1c')).toHaveCount(0);
  await manage.getByRole('button', { name: 'Close' }).click();

  await page.reload();
  await expect(cardOf(page, name)).toContainText('1 product');
  await expect(cardOf(page, name)).toContainText('Lipid Panel: No price set');
  manage = await open();
  await expect(manage.getByLabel('Package price for Lipid Panel')).toHaveValue('');
});

test('closing the dialog before the pause is over discards the edit', async ({ page }) => {
  // The price saves the page sends, in order, as the prices they carry.
  const saves: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === '/api/discountPackageProduct') {
      saves.push((request.postDataJSON() as { price: unknown }).price);
    }
  });
  await visitSignedIn(page, '/admin/discount-packages', ADMIN);
  const open = async () => {
    await cardOf(page, 'Family Wellness').getByRole('button', { name: 'Manage Products' }).click();
    return page.getByRole('dialog', { name: 'Manage Products: Family Wellness' });
  };
  let manage = await open();
  const before = await manage.getByRole('spinbutton').first().inputValue();
  await manage.getByRole('spinbutton').first().fill('1.23');
  await manage.getByRole('button', { name: 'Close' }).click();
  await expect(manage).toBeHidden();

  // A later edit saves after its own pause. The discarded edit's pause began first, so had its save survived the
  // closing, its PUT would have gone out before this one's, which the row's "Saved" waits for.
  manage = await open();
  // The first product's row (the header row has no price field).
  const row = manage
    .getByRole('row')
    .filter({ has: page.getByRole('spinbutton') })
    .first();
  const price = row.getByRole('spinbutton');
  await expect(price).toHaveValue(before);
  await price.fill('4.56');
  await expect(row).toContainText('Saving...');
  await expect(row).toContainText('Saved', { timeout: 5000 });
  expect(saves).toEqual([4.56]);

  // The seeded price back, as other journeys expect it.
  await price.fill(before);
  await expect(row).toContainText('Saving...');
  await expect(row).toContainText('Saved', { timeout: 5000 });
  expect(saves).toHaveLength(2);
  await page.reload();
  manage = await open();
  await expect(manage.getByRole('spinbutton').first()).toHaveValue(before);
});
