import { useEffect } from 'react';
import { hasAuthParams, useAuth } from 'react-oidc-context';
import { Outlet, useLocation } from 'react-router';
import { StatusScreen } from '../../components/status-screen.js';
import { AUTH_ERROR_PAUSE_MS, AUTH_MESSAGES } from './messages.js';
import { saveRedirectPath } from '../../lib/redirect-path.js';
import { useSessionRestore } from './session-provider.js';

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
  const signedOut = !auth.isLoading && !auth.isAuthenticated && !auth.activeNavigator && !hasAuthParams();
  const target = `${location.pathname}${location.search}${location.hash}`;
  const hasError = Boolean(failed ?? auth.error);
  // A new tab first tries the browser's session (another tab, the provider's cookie in a hidden frame) while the
  // page paints; only when that finds nothing is the member sent to sign in. After an error it is not tried.
  const session = useSessionRestore();
  const { restore } = session;
  const mayRestore = signedOut && !hasError && session.state !== 'done';
  const mustSignIn = signedOut && !mayRestore;

  useEffect(() => {
    if (mayRestore) restore();
  }, [mayRestore, restore]);

  useEffect(() => {
    if (!mustSignIn) return undefined;
    saveRedirectPath(target);
    // An error stays readable for a moment before the next attempt.
    const timer = setTimeout(() => void signinRedirect(), hasError ? AUTH_ERROR_PAUSE_MS : 0);
    return () => clearTimeout(timer);
  }, [mustSignIn, target, hasError, signinRedirect]);

  // While restoring, the page's shell and its loading states paint at once; the data follows the tokens.
  if (auth.isAuthenticated || mayRestore) return <Outlet />;
  if (failed)
    return <StatusScreen error={AUTH_MESSAGES.authenticationFailed(failed)} label={AUTH_MESSAGES.redirecting} />;
  if (auth.error) {
    return (
      <StatusScreen error={AUTH_MESSAGES.authenticationError(auth.error.message)} label={AUTH_MESSAGES.redirecting} />
    );
  }
  if (auth.isLoading && !auth.activeNavigator) return <StatusScreen label={AUTH_MESSAGES.loading} holdsFirstPaint />;
  return <StatusScreen label={AUTH_MESSAGES.redirecting} />;
}
