import { expect, type Page } from '@playwright/test';
import { cli, MEMBER, shot, visitSignedIn, test } from '../fixtures.js';

const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const openSecurity = async (page: Page) => {
  await page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'Security' }).click();
  const section = page.getByRole('region', { name: 'Security' });
  await expect(section.getByRole('list', { name: 'Devices' })).toBeVisible();
  return section;
};

test('a member signs another browser out from Security: it is sent to sign in at its next call, and the activity shows both sign-ins', async ({
  browser,
}) => {
  // A member of this try alone: a retry must not find the phone of the try before it still signed in.
  const member = { email: `two-devices-${Date.now()}@example.com`, password: 'Two-Devices-2026!' };
  cli('users', 'add', '--email', member.email, '--password', member.password);
  const laptop = await browser.newContext({ userAgent: FIREFOX_ON_LINUX });
  const phone = await browser.newContext({ userAgent: SAFARI_ON_IPHONE, viewport: { width: 375, height: 740 } });
  const mine = await laptop.newPage();
  const theirs = await phone.newPage();
  await visitSignedIn(theirs, '/', member);
  await visitSignedIn(mine, '/', member);

  const security = await openSecurity(mine);
  const devices = security.getByRole('list', { name: 'Devices' });
  const current = devices.getByRole('listitem', { name: 'Firefox 133 on Linux' }).filter({ hasText: 'This device' });
  await expect(current).toBeVisible();
  await expect(current.getByRole('button', { name: /^Sign out/ })).toHaveCount(0);
  const other = devices.getByRole('listitem', { name: 'Safari 17 on iOS 17.5' }).first();
  await expect(other).toContainText('Last active');
  await shot(mine, 'security-devices');

  await other.getByRole('button', { name: 'Sign out Safari 17 on iOS 17.5' }).click();
  await expect(devices.getByRole('listitem', { name: 'Safari 17 on iOS 17.5' })).toHaveCount(0);

  // The phone still shows its page; its next call is refused and it is sent to sign in.
  await theirs.reload();
  await expect(theirs.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 15_000 });

  // The activity, newest first: the ended session, then the two sign-ins of this journey.
  const activity = security.getByRole('list', { name: 'Recent activity' });
  await expect(activity.getByRole('listitem').first()).toContainText('Session ended from another device');
  await expect(
    activity
      .getByRole('listitem')
      .filter({ hasText: /^Signed in.*Firefox 133 on Linux/ })
      .first(),
  ).toBeVisible();
  await expect(
    activity
      .getByRole('listitem')
      .filter({ hasText: /^Signed in.*Safari 17 on iOS 17\.5/ })
      .first(),
  ).toBeVisible();
  await shot(mine, 'security-activity');
  await laptop.close();
  await phone.close();
});

test('"Sign out everywhere else" asks first, then signs out every other browser and keeps this one', async ({
  browser,
}) => {
  const here = await (await browser.newContext({ userAgent: FIREFOX_ON_LINUX })).newPage();
  const elsewhere = await (await browser.newContext({ userAgent: SAFARI_ON_IPHONE })).newPage();
  await visitSignedIn(elsewhere, '/', MEMBER);
  await visitSignedIn(here, '/', MEMBER);
  const security = await openSecurity(here);

  await security.getByRole('button', { name: 'Sign out everywhere else' }).click();
  const dialog = here.getByRole('alertdialog', { name: 'Sign out everywhere else?' });
  await expect(dialog).toContainText(
    'Every other device signed in to your account will be signed out at once. This device stays signed in.',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(security.getByRole('list', { name: 'Devices' }).getByRole('listitem')).not.toHaveCount(1);

  await security.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await here.getByRole('alertdialog').getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(security.getByRole('list', { name: 'Devices' }).getByRole('listitem')).toHaveCount(1);
  await expect(security.getByText('Your account is signed in on this device only.')).toBeVisible();

  await elsewhere.reload();
  await expect(elsewhere.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 15_000 });
  // This browser goes on.
  await here.reload();
  await expect(here.getByRole('heading', { name: 'Login Details' })).toBeVisible();
  await expect(here.getByRole('alert')).toHaveCount(0);
});

test("the app's calls prove the browser's key (DPoP): the key cannot be exported, and a copied token or proof is refused", async ({
  page,
}) => {
  const called = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/userdetails/');
  await visitSignedIn(page, '/', MEMBER);
  const request = await called;
  const headers = await request.allHeaders();
  expect(headers['authorization']).toMatch(/^DPoP ey/);
  expect(headers['dpop']).toMatch(/^ey/);

  // The private key lives in IndexedDB as a key the page itself cannot read out.
  const extractable = await page.evaluate(
    () =>
      new Promise<boolean[]>((resolve, reject) => {
        const open = indexedDB.open('oidc');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('dpop').objectStore('dpop').getAll();
          all.onsuccess = () =>
            resolve((all.result as { keys: CryptoKeyPair }[]).map((state) => state.keys.privateKey.extractable));
        };
      }),
  );
  expect(extractable).toEqual([false]);

  // Someone who copied the request gets nothing: its proof was spent, and the token alone is not enough.
  const replay = await page.request.get('/api/userdetails/', {
    headers: { authorization: headers['authorization']!, dpop: headers['dpop']! },
  });
  expect(replay.status()).toBe(401);
  const bearer = await page.request.get('/api/userdetails/', {
    headers: { authorization: headers['authorization']!.replace(/^DPoP/, 'Bearer') },
  });
  expect(bearer.status()).toBe(401);
});
