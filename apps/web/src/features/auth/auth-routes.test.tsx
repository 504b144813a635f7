import { screen, waitFor } from '@testing-library/react';
import { act, useState } from 'react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { fakeAuth, LocationProbe, renderWithProviders, signedInUser } from '../../test/render.js';
import { AdminGate } from './admin-gate.js';
import { AUTH_ERROR_PAUSE_MS, AUTH_MESSAGES } from './messages.js';
import { CallbackPage } from './callback-page.js';
import { saveRedirectPath } from '../../lib/redirect-path.js';
import { RequireAuth } from './require-auth.js';
import { SessionRestoreTestProvider, type RestoreState } from './session-provider.js';

function routes() {
  return (
    <>
      <Routes>
        <Route path="/auth/callback" element={<CallbackPage />} />
        <Route element={<RequireAuth />}>
          <Route
            path="/admin/*"
            element={
              <AdminGate>
                <h1>Admin console</h1>
              </AdminGate>
            }
          />
          <Route path="*" element={<h1>Account</h1>} />
        </Route>
      </Routes>
      <LocationProbe />
    </>
  );
}
const location = () => screen.getByRole('status', { name: 'location' }).textContent;

describe('the sign-in callback', () => {
  it('shows "Completing sign in..." while the code is exchanged', () => {
    renderWithProviders(routes(), { path: '/auth/callback', auth: fakeAuth({ isLoading: true }) });
    expect(screen.getByText('Completing sign in...')).toBeTruthy();
  });

  it('goes to the stored redirect path and removes it', async () => {
    saveRedirectPath('/payment-history?sort=date#latest');
    renderWithProviders(routes(), { path: '/auth/callback', auth: fakeAuth({ user: signedInUser() }) });
    await waitFor(() => expect(location()).toBe('/payment-history?sort=date#latest'));
    expect(sessionStorage.getItem('ums.redirect-path')).toBeNull();
  });

  it('goes to / when no path was stored, and never to another site', async () => {
    saveRedirectPath('//evil.example.com/x');
    renderWithProviders(routes(), { path: '/auth/callback', auth: fakeAuth({ user: signedInUser() }) });
    await waitFor(() => expect(location()).toBe('/'));
    expect(screen.getByRole('heading', { name: 'Account' })).toBeTruthy();
  });

  it('goes to / and shows "Authentication failed: {message}" on an error', async () => {
    vi.useFakeTimers();
    const auth = fakeAuth({
      error: { name: 'Error', message: 'state mismatch', source: 'signinCallback', innerError: null },
    });
    renderWithProviders(routes(), { path: '/auth/callback', auth });
    await act(async () => undefined);
    expect(location()).toBe('/');
    expect(screen.getByRole('alert').textContent).toBe('Authentication failed: state mismatch');
    expect(screen.getByText(AUTH_MESSAGES.redirecting)).toBeTruthy();
    // The message stays readable before the next sign-in attempt.
    expect(auth.signinRedirect).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(AUTH_ERROR_PAUSE_MS));
    expect(auth.signinRedirect).toHaveBeenCalledOnce();
  });
});

describe('any other path while signed out', () => {
  it('shows "Loading..." while the stored session is read', () => {
    renderWithProviders(routes(), { path: '/subscriptions', auth: fakeAuth({ isLoading: true }) });
    expect(screen.getByText('Loading...')).toBeTruthy();
  });

  it('saves path, query and hash and sends the visitor to sign in', async () => {
    const auth = fakeAuth();
    renderWithProviders(routes(), { path: '/payment-history?sort=amount#orders', auth });
    expect(screen.getByText('Redirecting to sign in...')).toBeTruthy();
    await waitFor(() => expect(auth.signinRedirect).toHaveBeenCalledOnce());
    expect(sessionStorage.getItem('ums.redirect-path')).toBe('/payment-history?sort=amount#orders');
    expect(screen.queryByRole('heading', { name: 'Account' })).toBeNull();
  });

  it('shows "Authentication error: {message}" with "Redirecting to sign in..."', () => {
    renderWithProviders(routes(), {
      path: '/',
      auth: fakeAuth({
        error: { name: 'Error', message: 'Renew silent failed', source: 'renewSilent', innerError: null },
      }),
    });
    expect(screen.getByRole('alert').textContent).toBe('Authentication error: Renew silent failed');
    expect(screen.getByText('Redirecting to sign in...')).toBeTruthy();
  });

  it('while a new tab restores the browser’s session, shows the page and starts no redirect; then sends to sign in', async () => {
    const auth = fakeAuth();
    const restore = vi.fn();
    let setState: (state: RestoreState) => void = () => undefined;
    function Restoring() {
      const [state, set] = useState<RestoreState>('idle');
      setState = set;
      return <SessionRestoreTestProvider value={{ state, restore }}>{routes()}</SessionRestoreTestProvider>;
    }
    renderWithProviders(<Restoring />, { path: '/payment-history', auth });
    // The page (its shell and loading states) paints at once, and the restore starts.
    expect(screen.getByRole('heading', { name: 'Account' })).toBeTruthy();
    await waitFor(() => expect(restore).toHaveBeenCalled());
    await act(async () => setState('restoring'));
    expect(screen.getByRole('heading', { name: 'Account' })).toBeTruthy();
    expect(auth.signinRedirect).not.toHaveBeenCalled();
    // Nothing found: the member is sent to sign in, back to this address afterwards.
    await act(async () => setState('done'));
    expect(screen.getByText('Redirecting to sign in...')).toBeTruthy();
    await waitFor(() => expect(auth.signinRedirect).toHaveBeenCalledOnce());
    expect(sessionStorage.getItem('ums.redirect-path')).toBe('/payment-history');
  });

  it('shows the page to a signed-in member', () => {
    renderWithProviders(routes(), { path: '/personal-information', auth: fakeAuth({ user: signedInUser() }) });
    expect(screen.getByRole('heading', { name: 'Account' })).toBeTruthy();
  });
});

describe('the admin gate', () => {
  it('says "Loading user information..." without a user', () => {
    // Signed in per the context, but the profile is not loaded yet.
    renderWithProviders(routes(), { path: '/admin', auth: fakeAuth({ isAuthenticated: true, user: null }) });
    expect(screen.getByText('Loading user information...')).toBeTruthy();
  });

  it('shows Access Denied with both texts to a member', () => {
    renderWithProviders(routes(), { path: '/admin/memberships', auth: fakeAuth({ user: signedInUser(['Members']) }) });
    expect(screen.getByRole('heading', { name: 'Access Denied' })).toBeTruthy();
    expect(screen.getByText("You don't have permission to view this page.")).toBeTruthy();
    expect(screen.getByText("You need to be in the 'Admin' group to access this area.")).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Admin console' })).toBeNull();
  });

  it('lets a member of the Admin group in', () => {
    renderWithProviders(routes(), { path: '/admin', auth: fakeAuth({ user: signedInUser(['Admin']) }) });
    expect(screen.getByRole('heading', { name: 'Admin console' })).toBeTruthy();
  });

  it('lets a member of the Support or the Catalog group in', () => {
    for (const group of ['Support', 'Catalog']) {
      const page = renderWithProviders(routes(), { path: '/admin', auth: fakeAuth({ user: signedInUser([group]) }) });
      expect(screen.getByRole('heading', { name: 'Admin console' }), group).toBeTruthy();
      page.unmount();
    }
  });
});
