import { expect, type Page } from '@playwright/test';
import { PASSWORD_RESET_TEXTS as R } from '@ums/contracts/security';
import { EMAIL_CHANGE_TEXTS as T } from '@ums/contracts/self-service/email-change';
import { accessibilityViolations, cli, mailTo, shot, signInOnProviderPage, test } from '../fixtures.js';

const linkIn = (mail: string, page: 'confirm' | 'revert') =>
  new RegExp(`(http\\S+/oidc/email/${page}\\?token=\\S+)`).exec(mail)![1]!;

/** A new browser, signed in with this address and password, on the account page. */
async function signedInElsewhere(page: Page, account: { email: string; password: string }) {
  const context = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin });
  const other = await context.newPage();
  await other.goto('/');
  await signInOnProviderPage(other, account);
  return other;
}

test("a member changes their email, confirms it from the mail, signs in with it, then takes the old one back from the old address's notice and signs in with that again", async ({
  page,
}) => {
  // Four sign-ins, three browsers and two mails read at the server's command line: 46 to 55 s alone on a two-core
  // machine, which left too little of the default minute when the machine is busy.
  test.setTimeout(120_000);
  const stamp = Date.now();
  const email = `changing-${stamp}@example.com`;
  const newEmail = `changed-${stamp}@example.com`;
  const password = 'Changing-Pass-2026!';
  const newPassword = 'Restored-Pass-2027!';
  cli('users', 'add', '--email', email, '--password', password);

  await page.goto('/');
  await signInOnProviderPage(page, { email, password });
  const login = page.getByRole('region', { name: 'Login Details' });
  await expect(login.getByText(email)).toBeVisible();

  // Asking: the new address and the current password, in a dialog.
  await login.getByRole('button', { name: T.edit }).click();
  const dialog = page.getByRole('dialog', { name: T.title });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(T.newEmail).fill(newEmail);
  await dialog.getByLabel(T.password).fill(password);
  expect(await accessibilityViolations(page)).toEqual([]);
  await shot(page, 'email-change-dialog');
  await dialog.getByRole('button', { name: T.send }).click();
  await expect(dialog).toBeHidden();
  await expect(login.getByText(T.waiting(newEmail))).toBeVisible();
  await expect(login.getByText(email)).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);

  // Confirming from the mail, in another tab of the same browser.
  const link = linkIn(await mailTo(newEmail, T.linkSubject), 'confirm');
  const tab = await page.context().newPage();
  await tab.goto(link);
  await expect(tab.getByRole('heading', { name: T.confirmTitle })).toBeVisible();
  expect(await accessibilityViolations(tab)).toEqual([]);
  await tab.getByRole('button', { name: T.confirm }).click();
  await expect(tab.getByRole('heading', { name: T.confirmedTitle })).toBeVisible();
  await expect(tab.getByText(T.confirmedText(newEmail))).toBeVisible();
  expect(await accessibilityViolations(tab)).toEqual([]);
  // The link works once.
  await tab.goto(link);
  await expect(tab.getByRole('heading', { name: T.invalidTitle })).toBeVisible();
  await expect(tab.getByText(T.linkUsed)).toBeVisible();
  expect(await accessibilityViolations(tab)).toEqual([]);
  await tab.close();

  // The account page that asked learns of it, and shows the new address.
  await page.bringToFront();
  await expect(login.getByText(T.changedHere(newEmail))).toBeVisible({ timeout: 15_000 });
  await expect(login.getByText(T.waiting(newEmail))).toBeHidden();

  // Another browser signs in with the new address; the old one no longer opens the account.
  const elsewhere = await signedInElsewhere(page, { email: newEmail, password });
  await expect(elsewhere.getByRole('region', { name: 'Login Details' }).getByText(newEmail)).toBeVisible();
  await elsewhere.context().close();

  // The old address's notice: "This wasn't me" restores it, signs out everywhere and asks for a new password.
  const notice = await mailTo(email, T.changedSubject);
  expect(notice).toContain(`was changed from ${email} to ${newEmail}`);
  const restore = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin });
  const owner = await restore.newPage();
  await owner.goto(linkIn(notice, 'revert'));
  await expect(owner.getByRole('heading', { name: T.revertTitle })).toBeVisible();
  expect(await accessibilityViolations(owner)).toEqual([]);
  await owner.getByRole('button', { name: T.revert }).click();
  await expect(owner.getByRole('heading', { name: R.resetTitle })).toBeVisible();
  await owner.getByLabel(R.newPassword).fill(newPassword);
  await owner.getByLabel(R.confirmPassword).fill(newPassword);
  await owner.getByRole('button', { name: R.save }).click();
  await expect(owner.getByRole('region', { name: 'Login Details' }).getByText(email)).toBeVisible({
    timeout: 15_000,
  });
  await restore.close();

  // The page that made the change was signed out with every other session.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 15_000 });
  // The old address signs in again, with the new password.
  await signInOnProviderPage(page, { email, password: newPassword });
  await expect(login.getByText(email)).toBeVisible();
});
