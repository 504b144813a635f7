import { expect } from '@playwright/test';
import { changePassword, MEMBER, shot, signInOnProviderPage, visitSignedIn, test } from '../fixtures.js';

const CHANGED = 'Changed-Member-2027!';

test('a password change in one browser sends the other to sign in at its next call; the first keeps working', async ({
  browser,
}) => {
  const changing = await (await browser.newContext()).newPage();
  const elsewhere = await (await browser.newContext()).newPage();
  await visitSignedIn(changing, '/', MEMBER);
  await visitSignedIn(elsewhere, '/payment-history', MEMBER);
  await expect(elsewhere.getByRole('heading', { name: 'Payment History', level: 2 })).toBeInViewport();

  await changePassword(changing, MEMBER.password, CHANGED);
  try {
    // The other browser's next API call is refused, its renewal too (its session ended): it is sent to sign in.
    await elsewhere.goto('/');
    await expect(elsewhere.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 15_000 });
    expect(new URL(elsewhere.url()).pathname).toMatch(/^\/oidc\/interaction\//);
    await shot(elsewhere, 'signed-out-by-password-change');

    // The browser that changed it goes on: no sign-in, no error banner, its data loads.
    await changing.reload();
    await expect(changing.getByRole('heading', { name: 'Login Details' })).toBeVisible();
    await expect(changing.getByText(MEMBER.email).first()).toBeVisible();
    await expect(changing.getByRole('alert')).toHaveCount(0);
    expect(new URL(changing.url()).pathname).toBe('/');

    // The other browser signs in with the new password and is back where it was going.
    await signInOnProviderPage(elsewhere, { email: MEMBER.email, password: CHANGED });
    await elsewhere.waitForURL((url) => url.pathname === '/' && !url.searchParams.has('code'));
    await expect(elsewhere.getByRole('heading', { name: 'Login Details' })).toBeVisible();
  } finally {
    // The demo member's password is what the other journeys sign in with.
    await changing.reload();
    await changePassword(changing, CHANGED, MEMBER.password);
  }
});
