import { expect, type Browser, type Page } from '@playwright/test';
import { MEMBER, signInOnProviderPage, visitSignedIn, test } from '../fixtures.js';

/** The member's name as the Personal Information section shows it (other journeys edit it). */
async function shownName(page: Page): Promise<string> {
  const value = page.getByRole('region', { name: 'Personal Information' }).getByRole('definition').first();
  await expect(value).not.toBeEmpty();
  return (await value.innerText()).trim();
}

/** The provider's authorization endpoint, as its discovery document names it. */
async function authorizationEndpoint(page: Page): Promise<string> {
  const discovery = await page.request.get('/oidc/.well-known/openid-configuration');
  return ((await discovery.json()) as { authorization_endpoint: string }).authorization_endpoint;
}

/**
 * Records every request to the authorization endpoint a page makes, noting whether it was the tab itself going
 * there (a top-level redirect) or a hidden frame, and what the page showed at that moment.
 */
function watchAuthorizations(page: Page, endpoint: string, name: string) {
  const seen: { topLevel: boolean; nameShown: boolean }[] = [];
  let nameShown = false;
  page.on('request', (request) => {
    if (!request.url().startsWith(endpoint)) return;
    seen.push({ topLevel: request.isNavigationRequest() && request.frame() === page.mainFrame(), nameShown });
  });
  return {
    seen,
    nameOnScreen: async () => {
      await expect(page.getByRole('region', { name: 'Personal Information' }).getByText(name)).toBeVisible();
      nameShown = true;
    },
  };
}

/** A browser where the member signed in on a first tab; a new tab of it, watched for trips to the provider. */
async function signedInBrowser(browser: Browser) {
  const context = await browser.newContext();
  const first = await context.newPage();
  await visitSignedIn(first, '/', MEMBER);
  const name = await shownName(first);
  return {
    context,
    first,
    newTab: async () => {
      const tab = await context.newPage();
      return { tab, authorizations: watchAuthorizations(tab, await authorizationEndpoint(tab), name) };
    },
  };
}

test('a second tab of a signed-in browser shows the member’s name without going to the provider', async ({
  browser,
}) => {
  const { context, newTab } = await signedInBrowser(browser);
  const { tab: second, authorizations } = await newTab();
  await second.goto('/#payment-history');
  await authorizations.nameOnScreen();
  // The open tab handed its session over: no trip to the provider at all, not even in a frame.
  expect(authorizations.seen).toEqual([]);
  expect(new URL(second.url()).pathname).toBe('/');
  await expect(second.getByRole('region', { name: 'Payment History' }).getByRole('table')).toBeVisible();
  await context.close();
});

test('with every tab closed, a new tab signs in from the provider’s session in a hidden frame, never a redirect', async ({
  browser,
}) => {
  const { context, first, newTab } = await signedInBrowser(browser);
  await first.close();
  const { tab: later, authorizations } = await newTab();
  await later.goto('/');
  await authorizations.nameOnScreen();
  expect(authorizations.seen.length).toBeGreaterThan(0);
  expect(authorizations.seen.filter((visit) => visit.topLevel)).toEqual([]);
  await context.close();
});

test('after signing out in one tab, a new tab is not signed in and the other tabs are sent to sign in', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const leaving = await context.newPage();
  await visitSignedIn(leaving, '/', MEMBER);
  const other = await context.newPage();
  await other.goto('/');
  expect(await shownName(other)).toBe(await shownName(leaving));

  await leaving.getByRole('button', { name: 'Logout' }).click();
  await expect(leaving.getByRole('heading', { name: 'Logout Complete' })).toBeVisible();
  // The page sends the member on to sign in by itself after 2 s (clicking "Go to Sign In Now" would race that).
  await expect(leaving.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 10_000 });

  // The tab still open does not hand the ended session to a new tab: the new tab asks the member to sign in.
  const fresh = await context.newPage();
  await fresh.goto('/payment-history');
  await expect(fresh.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // The other tab's next call is refused (the session ended with the sign-out): it is sent to sign in too.
  await other.reload();
  await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 15_000 });

  await signInOnProviderPage(fresh, MEMBER);
  await fresh.waitForURL((url) => url.pathname === '/payment-history' && !url.searchParams.has('code'));
  await context.close();
});
