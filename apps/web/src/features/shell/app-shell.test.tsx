import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocationProbe, renderWithProviders } from '../../test/render.js';
import { AppShell } from './app-shell.js';
import { SignOutProvider } from './sign-out-provider.js';
import { hasSignOutIntent } from '../../lib/sign-out-intent.js';

const entries = (active: string) =>
  ['Dashboard', 'Memberships'].map((label) => ({
    key: label,
    label,
    icon: <span />,
    href: `/${label.toLowerCase()}`,
    active: label === active,
  }));

function shell() {
  return (
    <SignOutProvider>
      <Routes>
        <Route
          path="*"
          element={
            <AppShell title="UMS Admin" navLabel="Admin console" entries={entries('Dashboard')}>
              <p>content</p>
            </AppShell>
          }
        />
      </Routes>
      <LocationProbe />
    </SignOutProvider>
  );
}

function mobileViewport(matches: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: matches && query === '(max-width: 768px)',
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

describe('the shell', () => {
  afterEach(() => vi.restoreAllMocks());

  it('has a header with the title and Logout, and an open drawer that marks the current entry', () => {
    renderWithProviders(shell());
    const header = screen.getByRole('banner');
    expect(within(header).getByText('UMS Admin')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Admin console' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Memberships' }).getAttribute('aria-current')).toBeNull();
    expect(screen.getByRole('button', { name: 'Toggle menu' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('Logout goes to /logout-complete?source=ums-client', () => {
    renderWithProviders(shell());
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/logout-complete?source=ums-client');
  });

  it('the menu toggle collapses and reopens the drawer', async () => {
    renderWithProviders(shell());
    const toggle = screen.getByRole('button', { name: 'Toggle menu' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
  });

  it('on a narrow screen the menu is an overlay titled Menu that closes after a choice', async () => {
    mobileViewport(true);
    renderWithProviders(shell());
    expect(screen.queryByRole('navigation', { name: 'Admin console' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Toggle menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    fireEvent.click(within(drawer).getByRole('link', { name: 'Memberships' }));
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/memberships');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull());
  });

  it('footer shows the copyright line and opens terms and privacy in a new tab', () => {
    renderWithProviders(shell());
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByText(`© ${new Date().getFullYear()} UMS Health. All rights reserved.`)).toBeTruthy();
    for (const name of ['Terms and Conditions', 'Privacy Policy']) {
      const link = within(footer).getByRole('link', { name });
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
  });
});

describe('the sign-out dialog', () => {
  it('Cancel closes it and keeps the tokens', async () => {
    sessionStorage.setItem('accessToken', 'a');
    renderWithProviders(shell());
    fireEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign Out' });
    expect(within(dialog).getByText('Are you sure you want to sign out?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(sessionStorage.getItem('accessToken')).toBe('a');
  });

  it('Sign Out clears the named token entries from both storages and goes to the logout screen', async () => {
    for (const store of [sessionStorage, localStorage]) {
      store.setItem('accessToken', 'a');
      store.setItem('cognito_access_token', 'c');
    }
    localStorage.setItem('theme', 'light');
    renderWithProviders(shell());
    fireEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign Out' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign Out' }));
    // What is left is the mark that this sign-out was asked for in the app (the logout screen takes it).
    expect(Object.keys(sessionStorage)).toEqual(['ums.sign-out-intent']);
    expect(hasSignOutIntent()).toBe(true);
    expect(Object.keys(localStorage)).toEqual(['theme']);
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/logout-complete?source=ums-client');
  });
});
