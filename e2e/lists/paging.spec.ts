import { runningEmbeddedUrl } from '@ums/api/embedded-postgres';
import { expect, type Page } from '@playwright/test';
import pg from 'pg';
import { ADMIN, MEMBER, serverDataDir, visitSignedIn, test } from '../fixtures.js';

const PRODUCTS = 60;
const MEMBERSHIPS = 40;
const ORDERS = 60;

/** More rows than one page holds, written straight into the running server's database. */
test.beforeAll(async () => {
  const url = await runningEmbeddedUrl(serverDataDir());
  const client = new pg.Client({ connectionString: url! });
  await client.connect();
  try {
    await client.query(
      `insert into products (product_id, name, retail_price)
       select 900000 + n, 'Zeta Panel ' || lpad(n::text, 3, '0'), 10 + n from generate_series(1, $1::int) n`,
      [PRODUCTS],
    );
    await client.query(
      `insert into memberships (name, product_id, membership_length_in_months)
       select 'Wellness Plan ' || lpad(n::text, 2, '0'), 1001, n from generate_series(1, $1::int) n`,
      [MEMBERSHIPS],
    );
    const { rows } = await client.query<{ subject: string }>(
      'select account_id::text as subject from accounts where email = $1',
      [MEMBER.email],
    );
    await client.query(
      `with o as (
         insert into orders (subject, total_amount, ordered_at, status)
         select $1, n, now() - make_interval(days => 400 + n), 'Paid' from generate_series(1, $2::int) n
         returning order_id)
       insert into order_items (order_id, position, product_name) select order_id, 0, 'Archived Panel' from o`,
      [rows[0]!.subject, ORDERS],
    );
  } finally {
    await client.end();
  }
});

const firstCell = (page: Page, table: string) =>
  page.getByRole('table', { name: table }).locator('tbody tr').first().locator('td').first();

test('an administrator searches, sorts and pages the catalog and the memberships, and a reload keeps the view', async ({
  page,
}) => {
  await visitSignedIn(page, '/admin/products', ADMIN);
  await page.getByRole('searchbox', { name: 'Search products' }).fill('ZETA');
  await expect(page.getByText(`Showing 25 of ${PRODUCTS}`)).toBeVisible();
  await page.getByLabel('Sort by').selectOption({ label: 'Price (high to low)' });
  await expect(firstCell(page, 'Products')).toHaveText(`Zeta Panel 0${PRODUCTS}`);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(page.getByText(`Showing 50 of ${PRODUCTS}`)).toBeVisible();
  await expect(page).toHaveURL(/[?&]q=ZETA/);
  await expect(page).toHaveURL(/[?&]sort=-retailPrice/);

  await page.reload();
  await expect(page.getByText(`Showing 25 of ${PRODUCTS}`)).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search products' })).toHaveValue('ZETA');
  await expect(page.getByLabel('Sort by')).toHaveValue('-retailPrice');
  await expect(firstCell(page, 'Products')).toHaveText(`Zeta Panel 0${PRODUCTS}`);

  await page.goto('/admin/memberships');
  await page.getByRole('searchbox', { name: 'Search memberships' }).fill('wellness plan');
  await expect(page.getByText(`Showing 25 of ${MEMBERSHIPS}`)).toBeVisible();
  await page.getByLabel('Sort by').selectOption({ label: 'Name (Z to A)' });
  const cards = page.getByRole('list', { name: 'Memberships' }).getByRole('heading');
  await expect(cards.first()).toHaveText(`Wellness Plan ${MEMBERSHIPS}`);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(cards).toHaveCount(MEMBERSHIPS);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await expect(cards.last()).toHaveText('Wellness Plan 01');

  await page.reload();
  await expect(page.getByText(`Showing 25 of ${MEMBERSHIPS}`)).toBeVisible();
  await expect(cards.first()).toHaveText(`Wellness Plan ${MEMBERSHIPS}`);
});

test('a member pages through payment history, in the order the server sorts it', async ({ page }) => {
  await visitSignedIn(page, '/', MEMBER);
  const table = page.getByRole('table', { name: 'Payment History' });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(25);
  const more = page.getByRole('button', { name: /^Show 25 more \(\d+ not shown\)$/ });
  await more.click();
  await expect(rows).toHaveCount(50);
  // Sorting asks the server: the smallest amount of all the member's orders comes first.
  await table.getByRole('button', { name: 'Amount (USD)' }).click();
  await expect(rows).toHaveCount(25);
  await expect(rows.first().locator('td').nth(2)).toHaveText('$1.00');
});
