import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, renderWithProviders, testConfig } from '../../test/render.js';
import { markSignOutIntent, SIGN_OUT_INTENT_MS } from '../../lib/sign-out-intent.js';
import { LogoutCompletePage } from './logout-complete-page.js';
import { LOGOUT_MESSAGES } from './messages.js';

const advance = (ms: number) => act(async () => vi.advanceTimersByTimeAsync(ms));
const statusOf = (app: string) => screen.getByText(app).nextElementSibling?.textContent;

describe('the logout-complete screen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sessionStorage.setItem(
      'oidc.user:http://localhost:8080/oidc:ums-web',
      JSON.stringify({ id_token: 'the.id.token', access_token: 'a' }),
    );
    sessionStorage.setItem('accessToken', 'a');
    localStorage.setItem('cognito_access_token', 'c');
    localStorage.setItem('CognitoIdentityServiceProvider.x.idToken', 'i');
    localStorage.setItem('authState', 's');
    localStorage.setItem('theme', 'light');
    // The app's own sign-out marks the sign-out as asked for before it opens this screen.
    markSignOutIntent();
  });

  it('signs out app by app, 1 s each, then redirects to the provider after 2 s', async () => {
    const redirect = vi.fn();
    const auth = fakeAuth();
    renderWithProviders(<LogoutCompletePage redirect={redirect} />, {
      path: '/logout-complete?source=ums-client',
      auth,
    });
    expect(statusOf('User Management System')).toBe('Waiting...');
    expect(screen.getByText('0 of 1 applications')).toBeTruthy();

    await advance(0);
    expect(statusOf('User Management System')).toBe('Signing out...');
    // Every key naming oidc, cognito or auth is gone, and the stored tokens; the rest stays.
    expect(Object.keys(sessionStorage)).toEqual([]);
    expect(Object.keys(localStorage)).toEqual(['theme']);
    expect(auth.removeUser).toHaveBeenCalled();

    await advance(999);
    expect(screen.queryByRole('heading', { name: 'Logout Complete' })).toBeNull();
    await advance(1);
    expect(statusOf('User Management System')).toBe('Complete');
    expect(screen.getByText('1 of 1 applications')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Logout Complete' })).toBeTruthy();
    expect(screen.getByText('You have been successfully logged out of all applications.')).toBeTruthy();
    expect(screen.getByText('Redirecting to sign in page...')).toBeTruthy();

    await advance(1999);
    expect(redirect).not.toHaveBeenCalled();
    await advance(1);
    expect(redirect).toHaveBeenCalledOnce();
    const url = new URL(redirect.mock.calls[0]![0] as string);
    expect(url.origin + url.pathname).toBe('http://localhost:8080/oidc/session/end');
    expect(url.searchParams.get('client_id')).toBe('ums-web');
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${window.location.origin}/`);
    // The ID token was read before storage was cleared.
    expect(url.searchParams.get('id_token_hint')).toBe('the.id.token');
  });

  it('opened by a link from elsewhere, it signs nobody out: it asks, and signs out once the member confirms', async () => {
    sessionStorage.removeItem('ums.sign-out-intent');
    const redirect = vi.fn();
    const auth = fakeAuth();
    renderWithProviders(<LogoutCompletePage redirect={redirect} />, {
      path: '/logout-complete?source=ums-client',
      auth,
    });
    expect(screen.getByText(LOGOUT_MESSAGES.confirmQuestion)).toBeTruthy();
    await advance(10_000);
    expect(auth.removeUser).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('accessToken')).toBe('a');
    expect(redirect).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: LOGOUT_MESSAGES.confirm }));
    await advance(0);
    expect(auth.removeUser).toHaveBeenCalled();
    await advance(1000);
    await advance(2000);
    expect(redirect).toHaveBeenCalledOnce();
  });

  it('asks as well when the mark is stale, and takes a fresh mark once (a reload asks)', async () => {
    sessionStorage.setItem('ums.sign-out-intent', String(Date.now() - SIGN_OUT_INTENT_MS - 1));
    const first = renderWithProviders(<LogoutCompletePage redirect={vi.fn()} />);
    expect(screen.getByText(LOGOUT_MESSAGES.confirmQuestion)).toBeTruthy();
    first.unmount();

    markSignOutIntent();
    const second = renderWithProviders(<LogoutCompletePage redirect={vi.fn()} />);
    expect(screen.queryByText(LOGOUT_MESSAGES.confirmQuestion)).toBeNull();
    second.unmount();
    renderWithProviders(<LogoutCompletePage redirect={vi.fn()} />);
    expect(screen.getByText(LOGOUT_MESSAGES.confirmQuestion)).toBeTruthy();
  });

  it('"Go to Sign In Now" redirects at once', async () => {
    const redirect = vi.fn();
    renderWithProviders(<LogoutCompletePage redirect={redirect} />);
    await advance(1000);
    fireEvent.click(screen.getByRole('button', { name: 'Go to Sign In Now' }));
    expect(redirect).toHaveBeenCalledOnce();
  });

  it('signs out of a companion app in a hidden frame and marks it Error after the 15 s time-out', async () => {
    const redirect = vi.fn();
    const config = { ...testConfig, companionApps: [{ name: 'Store', logoutUrl: 'https://store.example.com/logout' }] };
    renderWithProviders(<LogoutCompletePage redirect={redirect} />, { config });
    expect(screen.getByText('0 of 2 applications')).toBeTruthy();
    await advance(1000);
    expect(statusOf('User Management System')).toBe('Complete');
    expect(statusOf('Store')).toBe('Signing out...');
    const frame = document.querySelector('iframe[title="Sign out of Store"]') as HTMLIFrameElement;
    expect(frame.hidden).toBe(true);
    expect(frame.src).toBe('https://store.example.com/logout');
    await advance(15_000);
    expect(document.querySelector('iframe')).toBeNull();
    await advance(1000);
    expect(statusOf('Store')).toBe('Error');
    expect(screen.getByText('2 of 2 applications')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Logout Complete' })).toBeTruthy();
  });

  it('marks a companion app Complete once its logout page has loaded', async () => {
    const config = { ...testConfig, companionApps: [{ name: 'Store', logoutUrl: 'https://store.example.com/logout' }] };
    renderWithProviders(<LogoutCompletePage redirect={vi.fn()} />, { config });
    await advance(1000);
    fireEvent.load(document.querySelector('iframe')!);
    await advance(1000);
    expect(statusOf('Store')).toBe('Complete');
  });
});
