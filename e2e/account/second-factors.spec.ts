import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { RECOVERY_CODE_COUNT, SECOND_FACTOR_TEXTS, SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';
import { expect, type Browser, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { accessibilityViolations, animationsDone, cli, signInOnProviderPage, test } from '../fixtures.js';

const PASSWORD = 'Second-Factors-Journey-2026!';

/** The code an authenticator app shows for this key, `steps` periods of 30 s from now. */
const codeFor = (key: string, steps: number) =>
  new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

const openSecurity = async (page: Page) => {
  // The section loads as it nears the screen (at 375 px the section links sit in a menu).
  const section = page.getByRole('region', { name: 'Security' });
  await page.keyboard.press('End');
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByRole('heading', { name: T.authenticatorTitle })).toBeVisible();
  return section;
};

/** A fresh browser (as after signing out) signed in with the password; the second step is left to the caller. */
const passwordFirst = async (browser: Browser, size: { width: number; height: number }, email: string) => {
  const context = await browser.newContext({ viewport: size, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto('/');
  await signInOnProviderPage(page, { email, password: PASSWORD });
  await expect(page.getByRole('heading', { name: SECOND_FACTOR_TEXTS.title })).toBeVisible();
  return { context, page };
};

const reachAccount = async (page: Page) => {
  await page.waitForURL((url) => url.pathname === '/' && !url.searchParams.has('code'));
  await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
};

for (const size of [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
]) {
  test(`at ${size.width}px a member sets up an authenticator app in Security, saves the recovery codes, signs in with a code and with a recovery code, then removes the app`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const email = `factors-${size.width}-${randomBytes(4).toString('hex')}@example.com`;
    cli('users', 'add', '--email', email, '--password', PASSWORD);

    const first = await browser.newContext({ viewport: size, acceptDownloads: true });
    const page = await first.newPage();
    await page.goto('/');
    await signInOnProviderPage(page, { email, password: PASSWORD });
    await reachAccount(page);
    const security = await openSecurity(page);
    await expect(security.getByText(T.authenticatorOff)).toBeVisible();

    await security.getByRole('button', { name: T.setUp }).click();
    const setup = page.getByRole('dialog', { name: T.setupTitle });
    await expect(setup.getByRole('img', { name: T.qrLabel })).toBeVisible();
    const shownKey = (await setup.locator('code').textContent())!;
    expect(shownKey).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    const key = shownKey.replace(/ /g, '');
    expect(await accessibilityViolations(page), 'authenticator setup').toEqual([]);
    await setup.getByRole('textbox', { name: new RegExp(T.codeLabel) }).fill(codeFor(key, 0));
    await setup.getByRole('button', { name: T.confirm }).click();

    const saving = page.getByRole('alertdialog', { name: T.codesTitle });
    const listed = saving.getByRole('list', { name: T.codesListLabel }).getByRole('listitem');
    await expect(listed).toHaveCount(RECOVERY_CODE_COUNT);
    const codes = await listed.allTextContents();
    expect(await accessibilityViolations(page), 'recovery codes').toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      saving.getByRole('button', { name: T.download }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(T.fileName);
    const file = await readFile((await download.path())!, 'utf8');
    expect(file).toBe(`${T.fileHeading}\n\n${codes.join('\n')}\n`);
    await saving.getByRole('checkbox', { name: T.saved }).check();
    await saving.getByRole('button', { name: T.done }).click();
    await expect(security.getByText(T.remaining(RECOVERY_CODE_COUNT))).toBeVisible();
    await first.close();

    // Signed in again: the password, then the next step's code (this step's was spent on the setup).
    const withCode = await passwordFirst(browser, size, email);
    await withCode.page.getByLabel(SECOND_FACTOR_TEXTS.codeLabel).fill(codeFor(key, 1));
    await withCode.page.getByRole('button', { name: SECOND_FACTOR_TEXTS.verify }).click();
    await reachAccount(withCode.page);
    await withCode.context.close();

    // And with a recovery code: one fewer remains.
    const withRecovery = await passwordFirst(browser, size, email);
    await withRecovery.page.getByRole('link', { name: SECOND_FACTOR_TEXTS.useRecoveryCode }).click();
    await withRecovery.page.getByLabel(SECOND_FACTOR_TEXTS.recoveryLabel).fill(codes[0]!);
    await withRecovery.page.getByRole('button', { name: SECOND_FACTOR_TEXTS.verify }).click();
    await reachAccount(withRecovery.page);
    const again = await openSecurity(withRecovery.page);
    await expect(again.getByText(T.remaining(RECOVERY_CODE_COUNT - 1))).toBeVisible();

    await again.getByRole('button', { name: T.remove }).click();
    const removing = withRecovery.page.getByRole('alertdialog', { name: T.removeTitle });
    // axe reads colours mid fade-in as low contrast: it looks once the dialog has finished appearing.
    await animationsDone(removing);
    expect(await accessibilityViolations(withRecovery.page), 'remove confirmation').toEqual([]);
    await removing.getByRole('button', { name: T.remove }).click();
    await expect(again.getByRole('button', { name: T.setUp })).toBeVisible();
    await withRecovery.context.close();
  });
}
