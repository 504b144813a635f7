import { randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT, SECOND_FACTOR_UI_TEXTS as T, passkeyNameProblem } from '@ums/contracts/security';
import { expect, type Locator, type Page } from '@playwright/test';
import {
  accessibilityViolations,
  animationsDone,
  cli,
  platformAuthenticator,
  shot,
  signInOnProviderPage,
  test,
} from '../fixtures.js';

const PASSWORD = 'Passkeys-Journey-2026!';

const reachAccount = async (page: Page) => {
  await page.waitForURL((url) => url.pathname === '/' && !url.searchParams.has('code'));
  await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
};

/** The Passkeys part of Security (the section loads as it nears the screen; at 375 px its link sits in a menu). */
const openPasskeys = async (page: Page) => {
  const security = page.getByRole('region', { name: 'Security' });
  await page.keyboard.press('End');
  await security.scrollIntoViewIfNeeded();
  const part = security.getByRole('region', { name: T.passkeysTitle });
  await expect(part.getByRole('heading', { name: T.passkeysTitle })).toBeVisible();
  return part;
};

/** axe once the dialog has finished appearing (colours mid fade-in read as low contrast). */
const accessible = async (page: Page, dialog: Locator, what: string) => {
  await expect(dialog).toBeVisible();
  await animationsDone(dialog);
  expect(await accessibilityViolations(page), what).toEqual([]);
};

for (const size of [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
]) {
  test(`at ${size.width}px a member adds a passkey in Security, names it, saves the recovery codes, renames it, signs in with it alone, then removes it`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const email = `passkeys-${size.width}-${randomBytes(4).toString('hex')}@example.com`;
    cli('users', 'add', '--email', email, '--password', PASSWORD);
    const context = await browser.newContext({ viewport: size });
    const page = await context.newPage();

    // The device's platform authenticator: it keeps discoverable credentials and verifies its user.
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const authenticatorId = await platformAuthenticator(cdp);

    await page.goto('/');
    await signInOnProviderPage(page, { email, password: PASSWORD });
    await reachAccount(page);
    let passkeys = await openPasskeys(page);
    await expect(passkeys.getByText(T.passkeysNone)).toBeVisible();
    expect(await accessibilityViolations(page), 'Passkeys, none yet').toEqual([]);

    // Add: the browser's prompt (the virtual authenticator answers it), then a name in the page's dialog.
    await passkeys.getByRole('button', { name: T.addPasskey }).click();
    const naming = page.getByRole('dialog', { name: T.passkeyNameTitle });
    const nameField = naming.getByRole('textbox', { name: new RegExp(T.passkeyNameLabel) });
    await expect(nameField).toHaveValue(T.passkeySuggestedName('Linux'));
    await accessible(page, naming, 'naming the new passkey');
    await shot(page, `passkey-name-${size.width}`);
    await nameField.fill('Chromium');
    await naming.getByRole('button', { name: T.save }).click();

    // The account's first second factor: the same dialog now shows the recovery codes.
    const saving = page.getByRole('alertdialog', { name: T.codesTitle });
    await expect(saving.getByRole('list', { name: T.codesListLabel }).getByRole('listitem')).toHaveCount(
      RECOVERY_CODE_COUNT,
    );
    await accessible(page, saving, 'recovery codes after the first passkey');
    await saving.getByRole('checkbox', { name: T.saved }).check();
    await saving.getByRole('button', { name: T.done }).click();
    await expect(saving).toBeHidden();

    const listed = passkeys.getByRole('list', { name: T.passkeysTitle }).getByRole('listitem');
    await expect(listed).toHaveCount(1);
    await expect(listed).toContainText('Chromium');
    await expect(listed).toContainText(T.passkeyDeviceOnly);
    await expect(listed).toContainText(T.passkeyLastUsed(null));
    await expect(page.getByText(T.remaining(RECOVERY_CODE_COUNT))).toBeVisible();
    expect(await accessibilityViolations(page), 'Passkeys, one listed').toEqual([]);
    await passkeys.scrollIntoViewIfNeeded();
    await shot(page, `passkeys-listed-${size.width}`);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);

    // Rename: an empty name is refused in the dialog, a good one is saved.
    await passkeys.getByRole('button', { name: T.renameLabel('Chromium') }).click();
    const renaming = page.getByRole('dialog', { name: T.renameTitle });
    await accessible(page, renaming, 'rename');
    const newName = renaming.getByRole('textbox', { name: new RegExp(T.passkeyNameLabel) });
    await newName.fill('   ');
    await renaming.getByRole('button', { name: T.save }).click();
    await expect(renaming.getByText(passkeyNameProblem('')!)).toBeVisible();
    await newName.fill('Work laptop');
    await renaming.getByRole('button', { name: T.save }).click();
    await expect(renaming).toBeHidden();
    await expect(listed).toContainText('Work laptop');

    // Sign out, then in with the passkey alone: no email, no password typed. The device answers only once the
    // sign-in page is open (the page's email field also offers passkeys, which would otherwise answer at once), so it
    // is the button that signs in.
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByLabel('Password')).toHaveValue('');
    const withPasskey = page.getByRole('button', { name: 'Sign in with a passkey' });
    await expect(withPasskey).toBeVisible();
    await cdp.send('WebAuthn.addCredential', {
      authenticatorId: await platformAuthenticator(cdp),
      credential: credentials[0]!,
    });
    await withPasskey.click();
    await reachAccount(page);
    await expect(page.getByText(email).first()).toBeVisible();

    passkeys = await openPasskeys(page);
    const again = passkeys.getByRole('list', { name: T.passkeysTitle }).getByRole('listitem');
    await expect(again).toContainText('Work laptop');
    await expect(again).not.toContainText(T.passkeyLastUsed(null));

    // Remove, after the confirmation (the passkey sign-in just now is the recent sign-in it needs).
    await passkeys.getByRole('button', { name: T.removeLabel('Work laptop') }).click();
    const removing = page.getByRole('alertdialog', { name: T.removePasskeyTitle('Work laptop') });
    await accessible(page, removing, 'remove confirmation');
    await removing.getByRole('button', { name: T.remove }).click();
    await expect(removing).toBeHidden();
    await expect(passkeys.getByText(T.passkeysNone)).toBeVisible();
    await expect(passkeys.getByText('Work laptop')).toHaveCount(0);
    await context.close();
  });
}
