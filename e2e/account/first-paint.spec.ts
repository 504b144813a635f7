import { expect, type Locator, type Page } from '@playwright/test';
import { MEMBER, visitSignedIn, test } from '../fixtures.js';

const FIRST_PAINT = '#ums-first-paint';

/** Where a text is drawn, once the page's fonts are in (the first paint and the app use the same ones). */
async function placeOf(page: Page, element: Locator) {
  await expect(element).toBeVisible();
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const box = (await element.boundingBox())!;
  return { text: (await element.innerText()).trim(), ...box };
}

const SIZES = [
  { name: 'a desktop', viewport: { width: 1280, height: 900 } },
  // Lighthouse's phone.
  { name: 'a phone', viewport: { width: 412, height: 823 } },
];

for (const { name, viewport } of SIZES) {
  test(`on ${name}, the account page's first paint draws its titles before any script, where the app then draws them`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    try {
      // The document alone: no script runs, as in the moment before a cold cache has fetched them.
      await page.route('**/*.js', (route) => route.abort());
      await page.goto('/');
      const painted = page.locator(FIRST_PAINT);
      const before = {
        title: await placeOf(page, painted.locator('header p')),
        heading: await placeOf(page, painted.getByRole('heading', { level: 1, includeHidden: true })),
        section: await placeOf(page, painted.getByRole('heading', { level: 2, includeHidden: true })),
      };
      expect([before.title.text, before.heading.text, before.section.text]).toEqual([
        'My Account',
        'My Account',
        'Personal Information',
      ]);
      await page.unrouteAll();

      await visitSignedIn(page, '/', MEMBER);
      // Signing in ends on the sign-in return's page; the account page itself, opened again, is the one painted first.
      const reloaded = await page.reload();
      expect(await reloaded!.text()).toContain('<div id="ums-first-paint"');
      await expect(page.getByRole('region', { name: 'Personal Information' }).getByText('Full Name')).toBeVisible();
      // The app took the page over: the first paint is gone, not hidden under it.
      await expect(page.locator(FIRST_PAINT)).toHaveCount(0);
      const after = {
        title: await placeOf(page, page.locator('header p')),
        heading: await placeOf(page, page.getByRole('heading', { level: 1, name: 'My Account' })),
        section: await placeOf(page, page.locator('#personal-information-title')),
      };
      for (const key of ['title', 'heading', 'section'] as const) {
        expect(after[key].text, key).toBe(before[key].text);
        for (const measure of ['x', 'y', 'width', 'height'] as const) {
          expect(Math.abs(after[key][measure] - before[key][measure]), `${key} ${measure}`).toBeLessThanOrEqual(1);
        }
      }
    } finally {
      await context.close();
    }
  });
}

test('only the account page opens with its first paint: not its sections’ addresses, other pages or the console', async ({
  page,
}) => {
  const painted = async (path: string) => (await (await page.request.get(path)).text()).includes('ums-first-paint');
  expect(await painted('/')).toBe(true);
  expect(await painted('/personal-information')).toBe(true);
  for (const path of ['/payment-history', '/payment-information', '/admin'])
    expect(await painted(path), path).toBe(false);
});
