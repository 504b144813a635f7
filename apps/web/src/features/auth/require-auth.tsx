import { useEffect } from 'react';
import { hasAuthParams, useAuth } from 'react-oidc-context';
import { Outlet, useLocation } from 'react-router';
import { StatusScreen } from '../../components/status-screen.js';
import { AUTH_ERROR_PAUSE_MS, AUTH_MESSAGES } from './messages.js';
import { saveRedirectPath } from './redirect-path.js';

interface AuthFailedState {
  authFailed?: string;
}

/**
 * Every page but the callback and logout screens: signed-in members see the page; anyone else has the address
 * (path, query and hash) saved and is sent to sign in.
 */
export function RequireAuth() {
  const auth = useAuth();
  const { signinRedirect } = auth;
  const location = useLocation();
  const failed = (location.state as AuthFailedState | null)?.authFailed;
  const mustSignIn = !auth.isLoading && !auth.isAuthenticated && !auth.activeNavigator && !hasAuthParams();
  const target = `${location.pathname}${location.search}${location.hash}`;
  const hasError = Boolean(failed ?? auth.error);

  useEffect(() => {
    if (!mustSignIn) return undefined;
    saveRedirectPath(target);
    // An error stays readable for a moment before the next attempt.
    const timer = setTimeout(() => void signinRedirect(), hasError ? AUTH_ERROR_PAUSE_MS : 0);
    return () => clearTimeout(timer);
  }, [mustSignIn, target, hasError, signinRedirect]);

  if (auth.isAuthenticated) return <Outlet />;
  if (failed)
    return <StatusScreen error={AUTH_MESSAGES.authenticationFailed(failed)} label={AUTH_MESSAGES.redirecting} />;
  if (auth.error) {
    return (
      <StatusScreen error={AUTH_MESSAGES.authenticationError(auth.error.message)} label={AUTH_MESSAGES.redirecting} />
    );
  }
  if (auth.isLoading && !auth.activeNavigator) return <StatusScreen label={AUTH_MESSAGES.loading} />;
  return <StatusScreen label={AUTH_MESSAGES.redirecting} />;
}
