import {
  createContext,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useAuth } from 'react-oidc-context';
import { createApiClient, waitForApiClient, type ApiClient } from './api-client.js';
import { saveRedirectPath } from './redirect-path.js';
import { useRequestProof } from './request-proof.js';

const ApiContext = createContext<(() => ApiClient | null) | null>(null);

function tokenHolder() {
  let token: string | null = null;
  return {
    get: () => token,
    set: (next: string | null) => {
      token = next;
    },
  };
}

/** Gives screens an API client that carries the current access token and is unusable before sign-in. */
export function ApiProvider({ baseUrl, children }: { baseUrl: string; children: ReactNode }) {
  const auth = useAuth();
  const token = auth.user && !auth.user.expired ? auth.user.access_token : null;
  // The client reads the token when a request is made, not during render.
  const [session] = useState(tokenHolder);
  useLayoutEffect(() => session.set(token), [session, token]);
  // A refused token (revoked on the server: another device changed the password, an administrator ended the
  // session, the member's groups changed) is renewed once; when that fails the session is over, the stored user is
  // removed and RequireAuth sends the member to sign in, back to this address afterwards.
  const { signinSilent, removeUser } = auth;
  const renewing = useRef<Promise<string | null> | null>(null);
  const renew = useCallback(
    () =>
      (renewing.current ??= signinSilent()
        .then((user) => user?.access_token ?? null)
        .catch(() => null)
        .then(async (renewed) => {
          if (renewed) session.set(renewed);
          else await removeUser().catch(() => undefined);
          return renewed;
        })
        .finally(() => {
          renewing.current = null;
        })),
    [signinSilent, removeUser, session],
  );
  // A sensitive action needs a recent sign-in: the member signs in again (password and second factor) and comes
  // back to this address, where the action is one click away.
  const { signinRedirect } = auth;
  const stepUp = useCallback(
    (maxAge: number) => {
      saveRedirectPath(`${location.pathname}${location.search}${location.hash}`);
      void signinRedirect({ max_age: maxAge });
    },
    [signinRedirect],
  );
  const proof = useRequestProof();
  const client = useMemo(
    () => createApiClient({ baseUrl, getToken: session.get, onUnauthorized: renew, onStepUp: stepUp, proof }),
    [baseUrl, session, renew, stepUp, proof],
  );
  const current = useCallback(() => (session.get() ? client : null), [client, session]);
  return <ApiContext.Provider value={current}>{children}</ApiContext.Provider>;
}

/** Resolves to the API client once authentication has completed (waits up to 50 x 100 ms). */
export function useApi(): () => Promise<ApiClient> {
  const current = useContext(ApiContext);
  if (!current) throw new Error('useApi must be used inside ApiProvider');
  return useCallback(() => waitForApiClient(current), [current]);
}
