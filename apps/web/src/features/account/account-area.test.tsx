import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { COMING_SOON } from '../../components/messages.js';
import { SignOutProvider } from '../shell/index.js';
import { apiServer, envelope, listAnswer, useApiServer } from '../../test/api-server.js';
import { fakeAuth, LocationProbe, renderWithProviders, signedInUser, TEST_API } from '../../test/render.js';
import AccountArea from './account-area.js';

/** Which elements were scrolled into view, by id, in order. */
let scrolledTo: string[] = [];

describe('section addresses', () => {
  useApiServer();

  beforeEach(() => {
    scrolledTo = [];
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolledTo.push(this.id);
    });
    apiServer.use(
      http.get(`${TEST_API}/userdetails/`, () => HttpResponse.json(envelope({ firstName: 'Morgan', email: 'm@x.io' }))),
      // Every other read answers nothing: an empty list (a page of it when asked for one), or no record.
      http.get(`${TEST_API}/*`, ({ request }) => HttpResponse.json(listAnswer(request, []))),
    );
  });
  afterEach(() => vi.restoreAllMocks());

  function area(path: string) {
    return renderWithProviders(
      <SignOutProvider>
        <AccountArea />
        <LocationProbe />
      </SignOutProvider>,
      { path, auth: fakeAuth({ user: signedInUser() }) },
    );
  }

  const drawerLink = (name: string) =>
    screen.getByRole('navigation', { name: 'Account sections' }).querySelector(`a[href="/#${name}"]`);

  it.each([
    ['/login-details', 'login-details'],
    ['/payment-history', 'payment-history'],
    ['/subscriptions', 'subscriptions'],
  ])('%s opens the account page scrolled to its section with that drawer entry marked', async (path, id) => {
    area(path);
    await screen.findByRole('heading', { level: 1, name: 'My Account' });
    expect(screen.queryByText(COMING_SOON)).toBeNull();
    await waitFor(() => expect(scrolledTo).toContain(id));
    expect(drawerLink(id)?.getAttribute('aria-current')).toBe('page');
    expect(drawerLink('personal-information')?.getAttribute('aria-current')).toBeNull();
  });

  it('/payment-information stays a placeholder until payment methods exist', async () => {
    area('/payment-information');
    await screen.findByText(COMING_SOON);
    screen.getByRole('heading', { name: 'Payment Information' });
  });

  it('choosing another drawer entry from a section address moves the address to that section', async () => {
    area('/payment-history');
    await waitFor(() => expect(scrolledTo).toContain('payment-history'));
    const subscriptions = drawerLink('subscriptions');
    if (!subscriptions) throw new Error('no Subscriptions entry in the drawer');
    fireEvent.click(subscriptions);
    await waitFor(() => expect(screen.getByLabelText('location').textContent).toBe('/#subscriptions'));
    await waitFor(() => expect(scrolledTo.at(-1)).toBe('subscriptions'));
    screen.getByRole('heading', { level: 1, name: 'My Account' });
  });

  it('the Security section, loaded when it comes into view, is there at once when the member chooses it in the drawer', async () => {
    // A browser whose scroll stops short of the section (the page above grew meanwhile): it never comes into view.
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    onTestFinished(() => void vi.unstubAllGlobals());
    area('/');
    await screen.findByRole('heading', { level: 1, name: 'My Account' });
    expect(screen.queryByRole('heading', { level: 3, name: 'Devices' })).toBeNull();
    fireEvent.click(drawerLink('security')!);
    await screen.findByRole('heading', { level: 3, name: 'Devices' });
    expect(scrolledTo).toContain('security');
  });

  it('once the member scrolls by themselves, the drawer marks the section that has passed the line below the header', async () => {
    const marked = () =>
      [...screen.getByRole('navigation', { name: 'Account sections' }).querySelectorAll('a[aria-current="page"]')].map(
        (entry) => entry.getAttribute('href'),
      );
    const page = layOutPage();
    area('/subscriptions');
    await waitFor(() => expect(marked()).toEqual(['/#subscriptions']));
    fireEvent.wheel(window);

    // Payment History's top is 150px below the viewport's top, not yet within the 100px line: Login Details is read.
    page.scrollTo(PAGE.tops['payment-history'] - 150);
    await waitFor(() => expect(marked()).toEqual(['/#login-details']));
    page.scrollTo(PAGE.tops['payment-history'] - 50);
    await waitFor(() => expect(marked()).toEqual(['/#payment-history']));
    page.scrollTo(PAGE.tops.subscriptions);
    await waitFor(() => expect(marked()).toEqual(['/#subscriptions']));
    // Security is too short to reach the line: at the bottom of the page it is the one being read.
    page.scrollTo(PAGE.height - window.innerHeight);
    expect(PAGE.tops.security - window.scrollY).toBeGreaterThan(100);
    await waitFor(() => expect(marked()).toEqual(['/#security']));
  });
});

/** A laid-out account page: where each section starts, in px from the page's top, and the page's height. */
const PAGE = {
  tops: {
    'personal-information': 0,
    'login-details': 700,
    'payment-history': 1400,
    subscriptions: 2100,
    security: 2900,
  },
  height: 3300,
};

/**
 * Gives the sections the positions a browser would (jsdom lays nothing out, so every top would be 0) and a scroll
 * position the test moves; restored after the test.
 */
function layOutPage() {
  let scrollY = 0;
  const tops: Record<string, number> = PAGE.tops;
  const measure = Element.prototype.getBoundingClientRect;
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const top = tops[this.id];
    if (top === undefined) return measure.call(this);
    return DOMRect.fromRect({ x: 0, y: top - scrollY, width: 960, height: 600 });
  });
  const scrollYDescriptor = Object.getOwnPropertyDescriptor(window, 'scrollY');
  Object.defineProperty(window, 'scrollY', { configurable: true, get: () => scrollY });
  Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, get: () => PAGE.height });
  onTestFinished(() => {
    if (scrollYDescriptor) Object.defineProperty(window, 'scrollY', scrollYDescriptor);
    Reflect.deleteProperty(document.documentElement, 'scrollHeight');
  });
  return {
    scrollTo(y: number) {
      scrollY = y;
      fireEvent.scroll(window);
    },
  };
}
