import { expect } from '@playwright/test';
import { PASSWORD_RESET_TEXTS as R } from '@ums/contracts/security';
import { accessibilityViolations, cli, mailTo, shot, signInOnProviderPage, test } from '../fixtures.js';

test('a member who forgot their password asks for a link, sets a new one from the mail and is signed in', async ({
  page,
}) => {
  const email = `forgetful-${Date.now()}@example.com`;
  const password = 'Lost-Pass-2026!';
  const newPassword = 'Found-Pass-2027!';
  cli('users', 'add', '--email', email, '--password', password, '--first-name', 'Robin');

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('link', { name: R.link }).click();
  await expect(page.getByRole('heading', { name: R.title })).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.getByLabel(R.email).fill(email);
  await page.getByRole('button', { name: R.send }).click();
  await expect(page.getByRole('status')).toHaveText(R.sent);
  await shot(page, 'forgot-password-sent');

  // The link, read from the delivered mail.
  const mail = await mailTo(email, R.mailSubject);
  expect(mail).toContain('It works once, within 30 minutes:');
  const link = /(http\S+\/oidc\/password\/reset\?token=\S+)/.exec(mail)![1]!;

  await page.goto(link);
  await expect(page.getByRole('heading', { name: R.resetTitle })).toBeVisible();
  const rules = page.getByRole('list', { name: R.rules });
  const length = rules.getByRole('listitem').filter({ hasText: 'at least 8 characters' });
  await expect(length).toContainText(`(${R.notMet})`);
  await page.getByLabel(R.newPassword).fill(newPassword);
  // Every rule is ticked off as the member types, as in Login Details.
  await expect(rules.getByRole('listitem').filter({ hasText: `(${R.notMet})` })).toHaveCount(0);
  await expect(length).toContainText(`(${R.met})`);
  expect(await accessibilityViolations(page)).toEqual([]);
  await shot(page, 'forgot-password-new');
  await page.getByLabel(R.confirmPassword).fill(newPassword);
  await page.getByRole('button', { name: R.save }).click();

  // Signed in without typing the password again: the account page shows this member.
  const login = page.getByRole('region', { name: 'Login Details' });
  await expect(login.getByText(email)).toBeVisible({ timeout: 15_000 });
  expect(new URL(page.url()).pathname).toBe('/');

  // The alert went out, and the link works only once.
  expect(await mailTo(email, 'Your password was changed')).toContain('was changed on');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: R.invalidTitle })).toBeVisible();
  await expect(page.getByText(R.invalid)).toBeVisible();

  // The old password is refused, the new one signs in.
  const other = await page.context().browser()!.newPage();
  await other.goto('/');
  await signInOnProviderPage(other, { email, password });
  await expect(other.getByRole('alert')).toHaveText('The email or password is incorrect.');
  await other.getByLabel('Password').fill(newPassword);
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(other.getByRole('region', { name: 'Login Details' }).getByText(email)).toBeVisible();
  await other.close();
});
