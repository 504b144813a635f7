import { FluentProvider } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { User } from 'oidc-client-ts';
import type { ReactElement } from 'react';
import { AuthContext, type AuthContextProps } from 'react-oidc-context';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import { ClientConfigProvider } from '../lib/client-config-context.js';
import type { ClientConfig } from '../config/env.js';
import { ApiProvider } from '../lib/api-context.js';

/** Where component tests' API calls go; msw answers them. */
export const TEST_API = 'http://localhost/api';

export const testConfig: ClientConfig = {
  authority: 'http://localhost:8080/oidc',
  clientId: 'ums-web',
  scope: 'openid email phone profile',
  redirectPath: '/auth/callback',
  silentRenewPath: '/auth/silent-renew',
  frameSignIn: true,
  dpop: false,
  logoutUrl:
    'http://localhost:8080/oidc/session/end?client_id={clientId}&post_logout_redirect_uri={returnTo}&id_token_hint={idTokenHint}',
  forgotPasswordUrl: 'http://localhost:8080/oidc/password/forgot',
  emailChange: 'in-app',
  deletionGraceDays: 30,
  groupsClaim: 'groups',
  roleClaim: 'custom:role',
  adminGroup: 'Admin',
  supportGroup: 'Support',
  catalogGroup: 'Catalog',
  apiBase: '/api',
  businessTimeZone: 'America/New_York',
  analyticsUrl: null,
  companionApps: [],
  company: { name: 'UMS Health', termsUrl: '/legal/terms.html', privacyUrl: '/legal/privacy.html' },
};

export function signedInUser(groups: string[] = [], extra: Record<string, unknown> = {}): User {
  return new User({
    access_token: 'access-token',
    id_token: 'id-token',
    token_type: 'Bearer',
    scope: 'openid email phone profile',
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    profile: { sub: 'member-1', iss: 'http://localhost:8080/oidc', aud: 'ums-web', exp: 0, iat: 0, groups, ...extra },
  });
}

/** The sign-in state as react-oidc-context exposes it; only what our components use is a working double. */
export function fakeAuth(state: Partial<AuthContextProps> = {}): AuthContextProps {
  const user = state.user ?? null;
  const auth = {
    isLoading: false,
    isAuthenticated: Boolean(user),
    user,
    activeNavigator: undefined,
    error: undefined,
    settings: {},
    events: { addSilentRenewError: () => () => undefined },
    signinRedirect: vi.fn(async () => undefined),
    signinSilent: vi.fn(async () => null),
    removeUser: vi.fn(async () => undefined),
    ...state,
  };
  // The double implements the part of the context the app reads; the rest is never called.
  return auth as unknown as AuthContextProps;
}

/** Shows where the router is, so a test can assert navigation as an address. */
export function LocationProbe() {
  const location = useLocation();
  return <output aria-label="location">{`${location.pathname}${location.search}${location.hash}`}</output>;
}

export function renderWithProviders(
  ui: ReactElement,
  {
    auth = fakeAuth(),
    path = '/',
    config = testConfig,
    queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  }: {
    auth?: AuthContextProps;
    path?: string;
    config?: ClientConfig;
    /** The app's own client (`createQueryClient`) where a test depends on how long answers stay fresh. */
    queryClient?: QueryClient;
  } = {},
) {
  return render(
    <FluentProvider>
      <ClientConfigProvider config={config}>
        <AuthContext.Provider value={auth}>
          <ApiProvider baseUrl={TEST_API}>
            <QueryClientProvider client={queryClient}>
              <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
            </QueryClientProvider>
          </ApiProvider>
        </AuthContext.Provider>
      </ClientConfigProvider>
    </FluentProvider>,
  );
}
