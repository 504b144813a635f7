import { User, UserManager, type UserManagerSettings } from 'oidc-client-ts';
import { startTransition } from 'react';
import { TabDPoPStore } from './dpop-key-store.js';

/**
 * A new tab has no tokens (they live in each tab's session storage), but the browser often has a session: another
 * open tab holds tokens, or the provider's session cookie is still valid. This module signs the new tab in from
 * either without a top-level trip through the provider, while the page's shell is already painting:
 *
 * 1. Ask the other tabs of this origin over a BroadcastChannel; a signed-in tab answers with its user (tokens and
 *    profile, never its refresh token: the provider rotates refresh tokens, and two tabs spending one would end
 *    the grant).
 * 2. Otherwise, when this browser signed in before and the provider allows it, a hidden frame asks the provider
 *    with prompt=none (its session cookie answers).
 * 3. Otherwise (or when both fail) the caller sends the member to sign in, as before.
 */

export const SESSION_CHANNEL = 'ums-session';
/** How long a new tab waits for another tab's answer; an open tab answers within a few milliseconds. */
export const TAB_ANSWER_MS = 250;
/** How long the hidden frame may take before the page sends the member to sign in instead. */
export const FRAME_SIGN_IN_SECONDS = 4;
/**
 * Set while this browser has signed in; the sign-out screen removes it with every other entry whose key contains
 * "auth" (the specification's clearing rule), so a browser that signed out goes straight to the sign-in page.
 */
export const SIGNED_IN_HINT_KEY = 'ums.auth.signed-in';

type SessionMessage =
  | { type: 'request'; id: string }
  /** `dpopKey`: the key the user's tokens are bound to (null without DPoP). */
  | { type: 'session'; id: string; user: string; dpopKey?: string | null }
  | { type: 'signed-out' };

/** The tab's DPoP key store, when the app binds tokens with DPoP. */
const tabKeys = (userManager: Pick<UserManager, 'settings'>) => {
  const store = userManager.settings.dpop?.store;
  return store instanceof TabDPoPStore ? store : null;
};

const channel = (): BroadcastChannel | null =>
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);

/** The user as another tab may hold it: the same tokens and profile, without the refresh token. */
export function withoutRefreshToken(user: User): User {
  const stored = JSON.parse(user.toStorageString()) as Record<string, unknown>;
  delete stored['refresh_token'];
  return User.fromStorageString(JSON.stringify(stored));
}

/**
 * Asks the other open tabs for their user; null when none answers in time. With DPoP this tab then proves with the
 * answering tab's key (`keys`), to which the tokens are bound.
 */
export function requestSessionFromTabs(
  timeoutMs = TAB_ANSWER_MS,
  keys: TabDPoPStore | null = null,
): Promise<User | null> {
  const bus = channel();
  if (!bus) return Promise.resolve(null);
  const id = crypto.randomUUID();
  return new Promise((resolve) => {
    const finish = (user: User | null) => {
      clearTimeout(timer);
      bus.close();
      resolve(user);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    bus.onmessage = (event: MessageEvent<SessionMessage>) => {
      const message = event.data;
      if (message.type !== 'session' || message.id !== id) return;
      try {
        const user = User.fromStorageString(message.user);
        if (user.expired) return;
        if (message.dpopKey) keys?.adopt(message.dpopKey);
        finish(user);
      } catch {
        // a malformed answer is ignored; another tab may still answer
      }
    };
    bus.postMessage({ type: 'request', id } satisfies SessionMessage);
  });
}

/**
 * In a signed-in tab: answers other tabs' requests with this tab's user. Once another tab has signed out it never
 * answers again (until it signs in anew): the provider is ending that session, and its tokens must not spread. The
 * tab keeps its own tokens; its next call, refused once the session has ended, sends it to sign in. (Sending it
 * at once would race the provider: a sign-in started before the session ends would succeed silently.)
 * Returns the function that stops listening.
 */
export function shareSessionWithTabs(userManager: UserManager): () => void {
  const bus = channel();
  if (!bus) return () => undefined;
  let signedOut = false;
  const stopWatching = userManager.events.addUserLoaded(() => {
    signedOut = false;
  });
  bus.onmessage = (event: MessageEvent<SessionMessage>) => {
    const message = event.data;
    if (message.type === 'signed-out') signedOut = true;
    if (message.type !== 'request' || signedOut) return;
    void userManager.getUser().then((user) => {
      if (!user || user.expired || signedOut) return;
      bus.postMessage({
        type: 'session',
        id: message.id,
        user: withoutRefreshToken(user).toStorageString(),
        dpopKey: tabKeys(userManager)?.tabKey() ?? null,
      } satisfies SessionMessage);
    });
  };
  return () => {
    stopWatching();
    bus.close();
  };
}

/** Tells the other tabs this browser signed out: none hands its session to a new tab any more. */
export function announceSignOut(): void {
  const bus = channel();
  if (!bus) return;
  bus.postMessage({ type: 'signed-out' } satisfies SessionMessage);
  bus.close();
}

export const rememberSignedIn = () => localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
const forgetSignedIn = () => localStorage.removeItem(SIGNED_IN_HINT_KEY);

/** Hands a user to the app's user manager; the screens update in a transition (React renders in slices). */
async function loadUser(userManager: UserManager, user: User): Promise<void> {
  await userManager.storeUser(user);
  let loaded: Promise<void> = Promise.resolve();
  startTransition(() => {
    loaded = userManager.events.load(user);
  });
  await loaded;
}

/**
 * Signs this tab in from the browser's existing session, without leaving the page. Resolves true when the tab now
 * has a user (the user manager has loaded it, so the auth state follows), false when the member must sign in.
 * `frameSignIn` asks the provider in a hidden frame (null when the provider refuses frames); it runs on a user
 * manager of its own, so the app hears of the user once, in a transition.
 */
export async function restoreSession(
  userManager: UserManager,
  frameSignIn: (() => Promise<User | null>) | null,
): Promise<boolean> {
  const shared = await requestSessionFromTabs(TAB_ANSWER_MS, tabKeys(userManager));
  if (shared) {
    await loadUser(userManager, shared);
    return true;
  }
  if (!frameSignIn || localStorage.getItem(SIGNED_IN_HINT_KEY) === null) return false;
  try {
    const user = await frameSignIn();
    if (!user) return false;
    await loadUser(userManager, user);
    return true;
  } catch {
    // The provider's session is over (login_required) or did not answer: the member signs in again.
    forgetSignedIn();
    return false;
  }
}

/** The hidden-frame sign-in on a user manager that renews nothing itself (the app's manager takes the user over). */
export const frameSignInWith = (settings: UserManagerSettings) => () =>
  new UserManager({ ...settings, automaticSilentRenew: false }).signinSilent({
    silentRequestTimeoutInSeconds: FRAME_SIGN_IN_SECONDS,
  });
