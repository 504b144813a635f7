import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMING_SOON } from '../../components/messages.js';
import { SignOutProvider } from '../shell/index.js';
import { apiServer, envelope, useApiServer } from '../../test/api-server.js';
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
      http.get(`${TEST_API}/*`, () => HttpResponse.json({ ...envelope([]), page: { nextCursor: null, total: 0 } })),
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

  it('the member scrolling by themselves ends the landing: the scroll spy marks the drawer again', async () => {
    area('/subscriptions');
    await waitFor(() => expect(drawerLink('subscriptions')?.getAttribute('aria-current')).toBe('page'));
    fireEvent.wheel(window);
    // jsdom lays nothing out, so every section's top is 0 and the spy marks the last one that passed the line.
    await waitFor(() => expect(drawerLink('security')?.getAttribute('aria-current')).toBe('page'));
  });
});
