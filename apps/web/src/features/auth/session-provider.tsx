import { User, UserManager } from 'oidc-client-ts';
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { AuthProvider } from 'react-oidc-context';
import type { ClientConfig } from '../../config/env.js';
import { RequestProofContext, type RequestProof } from '../../lib/request-proof.js';
import { userManagerSettings } from './oidc-settings.js';
import { frameSignInWith, rememberSignedIn, restoreSession, shareSessionWithTabs } from './session-restore.js';

/** idle: not tried; restoring: asking the other tabs or the provider's frame; done: tried once (with any result). */
export type RestoreState = 'idle' | 'restoring' | 'done';

interface SessionRestore {
  state: RestoreState;
  restore: () => void;
}

const SessionRestoreContext = createContext<SessionRestore | null>(null);

/**
 * The sign-in state of the app (react-oidc-context over one oidc-client-ts user manager), plus the new tab's
 * session restore: RequireAuth starts it once, before it would send the member to sign in.
 */
export function SessionProvider({ config, children }: { config: ClientConfig; children: ReactNode }) {
  const [settings] = useState(() => userManagerSettings(config, window.location.origin));
  const [userManager] = useState(() => new UserManager(settings));
  const [state, setState] = useState<RestoreState>('idle');

  useEffect(() => {
    const stopSharing = shareSessionWithTabs(userManager);
    const stopRemembering = userManager.events.addUserLoaded(rememberSignedIn);
    return () => {
      stopSharing();
      stopRemembering();
    };
  }, [userManager]);

  const started = useRef(false);
  const restore = useCallback(() => {
    if (started.current) return;
    started.current = true;
    setState('restoring');
    void restoreSession(userManager, config.frameSignIn ? frameSignInWith(settings) : null)
      .catch(() => false)
      .then(() => startTransition(() => setState('done')));
  }, [userManager, settings, config.frameSignIn]);

  const value = useMemo(() => ({ state, restore }), [state, restore]);
  // Proofs come from the user manager's key; only the access token matters to a proof (its hash, `ath`).
  const proof = useMemo<RequestProof | null>(
    () =>
      settings.dpop
        ? (method, url, accessToken) =>
            userManager.dpopProof(
              url,
              new User({
                access_token: accessToken,
                token_type: 'DPoP',
                profile: { sub: '', iss: '', aud: '', exp: 0, iat: 0 },
              }),
              method,
            )
        : null,
    [settings, userManager],
  );
  return (
    <AuthProvider
      userManager={userManager}
      // The code and state leave the address bar once used; the callback screen then routes on.
      onSigninCallback={() => window.history.replaceState(window.history.state, '', window.location.pathname)}
    >
      <RequestProofContext.Provider value={proof}>
        <SessionRestoreContext.Provider value={value}>{children}</SessionRestoreContext.Provider>
      </RequestProofContext.Provider>
    </AuthProvider>
  );
}

/** Without a SessionProvider (a screen rendered on its own in a test) there is no browser session to restore. */
const NOTHING_TO_RESTORE: SessionRestore = { state: 'done', restore: () => undefined };

export function useSessionRestore(): SessionRestore {
  return useContext(SessionRestoreContext) ?? NOTHING_TO_RESTORE;
}

/** Gives a screen under test a restore in a chosen state. */
export const SessionRestoreTestProvider = SessionRestoreContext.Provider;

/** True while the tab may still be signed in from the browser's session: screens show loading, not "log in". */
export function useSessionPending(): boolean {
  return useContext(SessionRestoreContext)?.state === 'restoring';
}
