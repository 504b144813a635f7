import { useEffect } from 'react';
import { useAuth } from 'react-oidc-context';
import { SILENT_RENEW_RETRY_MS } from './messages.js';

/** oidc-client-ts renews before the access token expires; a renewal that timed out is tried again after 5 s. */
export function useSilentRenewRetry(): void {
  const auth = useAuth();
  const { events, signinSilent } = auth;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = events.addSilentRenewError((error) => {
      if (error.name !== 'ErrorTimeout') return;
      clearTimeout(timer);
      timer = setTimeout(() => void signinSilent(), SILENT_RENEW_RETRY_MS);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [events, signinSilent]);
}

/**
 * The retry as a component that renders nothing: it follows the sign-in state on its own, so a change of that
 * state (a renewal, a new tab signing in) does not re-render the routes around it.
 */
export function SilentRenewRetry(): null {
  useSilentRenewRetry();
  return null;
}
