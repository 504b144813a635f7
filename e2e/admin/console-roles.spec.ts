import { expect, type Page } from '@playwright/test';
import { dpopHeaders, signIn } from '@ums/testkit/oidc-browser';
import { accessibilityViolations, ADMIN, cli, mailTo, shot, test, visitSignedIn } from '../fixtures.js';

// The console's least-privilege roles (README, "Console roles"): each person sees and does what their role allows,
// and an address outside it says so.

const PASSWORD = 'Console-Role-Pass-2026';

/** A new account in the console group of `role`. */
function withRole(role: 'Support' | 'Catalog') {
  const email = `${role.toLowerCase()}-${Date.now()}@example.com`;
  cli('users', 'add', '--email', email, '--password', PASSWORD, '--first-name', role);
  cli('users', 'grant', '--email', email, '--role', role);
  return { email, password: PASSWORD };
}

/** Searches the directory for the address and opens the member once the list shows only them. */
async function findMember(page: Page, email: string) {
  await page.getByRole('searchbox', { name: 'Search members by email or name' }).fill(email);
  const rows = page.getByRole('table', { name: 'Members' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  await rows.getByRole('link', { name: email }).click();
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Admin console' });

test('a Support user finds a member and ends their sessions, sees no catalog entry or write button, and is told the catalog is not in their role at its address', async ({
  page,
  baseURL,
}) => {
  const memberEmail = `helped-${Date.now()}@example.com`;
  cli('users', 'add', '--email', memberEmail, '--password', PASSWORD, '--first-name', 'Helped');
  const member = await signIn(baseURL!, memberEmail, PASSWORD);
  const memberCall = async () =>
    (
      await fetch(`${baseURL}/api/userdetails/`, {
        headers: dpopHeaders(member.access_token, 'GET', `${baseURL}/api/userdetails/`),
      })
    ).status;
  expect(await memberCall()).toBe(200);

  await visitSignedIn(page, '/admin', withRole('Support'));
  // The console starts where the role does: the member directory.
  await expect(page).toHaveURL(/\/admin\/members$/);
  await expect(nav(page).getByRole('link')).toHaveText(['Members', 'Activity', 'Settings']);
  await expect(page.getByRole('button', { name: 'Export CSV' })).toHaveCount(0);

  await findMember(page, memberEmail);
  await expect(page.getByRole('heading', { name: 'Helped', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change groups' })).toHaveCount(0);
  await page.getByRole('button', { name: 'End all sessions' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'End all sessions?' });
  await confirm.getByRole('button', { name: 'End all sessions' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Every session of the member has ended' })).toBeVisible();
  await expect.poll(memberCall).toBe(401);

  for (const path of ['/admin/discount-packages', '/admin/memberships/new']) {
    await page.goto(path);
    await expect(
      page.getByRole('heading', { name: 'Your role does not include the catalog.', level: 1 }),
    ).toBeVisible();
    await expect(page.getByText('Ask an administrator for the Catalog role.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create New Package' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  }
  expect(await accessibilityViolations(page), 'the page of what the role does not include').toEqual([]);
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await accessibilityViolations(page), 'the same on a phone').toEqual([]);
  await shot(page, 'admin-role-lacks-catalog');
  await page.getByRole('link', { name: 'Go to the console’s start' }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
});

test('a Catalog user changes a package price and cannot reach Members, by the menu or by address', async ({ page }) => {
  await visitSignedIn(page, '/admin/discount-packages', withRole('Catalog'));
  // The menu is drawn first (its Discount Packages entry), then found to lack Members ("Memberships" is another entry).
  await expect(nav(page).getByRole('link', { name: 'Discount Packages' })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Members', exact: true })).toHaveCount(0);

  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Family Wellness' }) });
  await card.getByRole('button', { name: 'Manage Products' }).click();
  const manage = page.getByRole('dialog', { name: 'Manage Products: Family Wellness' });
  const row = manage
    .getByRole('row')
    .filter({ has: page.getByRole('spinbutton') })
    .first();
  const seeded = await row.getByRole('spinbutton').inputValue();
  await row.getByRole('spinbutton').fill('31.75');
  await expect(row).toContainText('Saved', { timeout: 5000 });
  await manage.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await card.getByRole('button', { name: 'Manage Products' }).click();
  await expect(row.getByRole('spinbutton')).toHaveValue('31.75');
  // The seeded price back, as other journeys expect it.
  await row.getByRole('spinbutton').fill(seeded);
  await expect(row).toContainText('Saving...');
  await expect(row).toContainText('Saved', { timeout: 5000 });
  await manage.getByRole('button', { name: 'Close' }).click();

  // The audit trail shows the catalog's entries, its own price change among them, and no member kind to choose.
  await page.goto('/admin/activity');
  await expect(page.getByRole('heading', { name: /^Changed a package price/ }).first()).toBeVisible();
  const kinds = await page.getByRole('combobox', { name: 'Show' }).locator('option').allTextContents();
  expect(kinds).toEqual(['All changes', 'Membership', 'Discount package', 'Product catalog']);
  expect(await accessibilityViolations(page), 'Activity as Catalog').toEqual([]);

  await page.goto('/admin/members');
  await expect(page.getByRole('heading', { name: 'Your role does not include member data.', level: 1 })).toBeVisible();
  await expect(page.getByText('Ask an administrator for the Support role.')).toBeVisible();
  expect(await accessibilityViolations(page), 'member data outside the role').toEqual([]);
});

test('an administrator gives a member the Support role on their page, and the member is told by mail', async ({
  page,
}) => {
  const email = `promoted-${Date.now()}@example.com`;
  cli('users', 'add', '--email', email, '--password', PASSWORD, '--first-name', 'Promoted');
  await visitSignedIn(page, '/admin/members', ADMIN);
  await findMember(page, email);
  await page.getByRole('button', { name: 'Change groups' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change groups' });
  await dialog.getByRole('checkbox', { name: /^Support: / }).check();
  await expect(dialog.getByLabel('Groups')).toHaveValue('Support');
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await accessibilityViolations(page), 'the groups dialog with its role boxes').toEqual([]);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Groups saved' })).toBeVisible();
  await expect(page.getByText(`${email} · Groups: Support`)).toBeVisible();

  const mail = await mailTo(email, 'Your access to the admin console changed');
  expect(mail).toContain(
    `An administrator changed the roles of your UMS Health account (${email}) in the admin console on`,
  );
  expect(mail).toContain('Your roles were: none.');
  expect(mail).toContain('Your roles are now: Support.');
});

test("an operator gives a member a console role at the server's command line: the member is told by mail, and Activity shows the change as the operator's", async ({
  page,
}) => {
  const email = `granted-${Date.now()}@example.com`;
  cli('users', 'add', '--email', email, '--password', PASSWORD, '--first-name', 'Granted');
  cli('users', 'grant', '--email', email, '--role', 'Catalog');

  const mail = await mailTo(email, 'Your access to the admin console changed');
  expect(mail).toContain(
    `An operator changed the roles of your UMS Health account (${email}) at the server's command line on`,
  );
  expect(mail).toContain('Your roles were: none.');
  expect(mail).toContain('Your roles are now: Catalog.');

  await visitSignedIn(page, '/admin/activity', ADMIN);
  await page.getByRole('searchbox', { name: 'Search by administrator, action or name' }).fill(email);
  // The other tests' grants are the operator's too: only this member's entry once the search has landed.
  const entries = page.getByRole('list', { name: 'Activity' }).getByRole('listitem');
  await expect(entries).toHaveCount(1);
  await expect(entries.getByRole('heading', { name: `Changed the member's groups: ${email}` })).toBeVisible();
  await expect(entries.getByText('by an operator (command line)')).toBeVisible();
});
