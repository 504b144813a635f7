import { InMemoryWebStorage, User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedInUser, testConfig } from '../../test/render.js';
import { userManagerSettings } from './oidc-settings.js';
import {
  announceSignOut,
  requestSessionFromTabs,
  restoreSession,
  shareSessionWithTabs,
  SIGNED_IN_HINT_KEY,
} from './session-restore.js';

/** A tab: its own user manager over its own session storage. */
const tab = () =>
  new UserManager({
    ...userManagerSettings(testConfig, 'http://localhost'),
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
  });
const withRefreshToken = () =>
  User.fromStorageString(JSON.stringify({ ...JSON.parse(signedInUser().toStorageString()), refresh_token: 'rt-1' }));
const stops: (() => void)[] = [];
const share = (manager: UserManager) => stops.push(shareSessionWithTabs(manager));

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('a new tab signing in from the browser session', () => {
  it('receives the signed-in tab’s tokens and profile, never its refresh token', async () => {
    const open = tab();
    await open.storeUser(withRefreshToken());
    share(open);

    const user = await requestSessionFromTabs();
    expect(user?.access_token).toBe('access-token');
    expect(user?.id_token).toBe('id-token');
    expect(user?.profile.sub).toBe('member-1');
    expect(user?.refresh_token).toBeUndefined();
  });

  it('hears nothing when no tab is signed in, or when the only signed-in user has expired', async () => {
    const empty = tab();
    share(empty);
    expect(await requestSessionFromTabs(100)).toBeNull();

    const stale = tab();
    const expired = signedInUser();
    expired.expires_at = Math.floor(Date.now() / 1000) - 10;
    await stale.storeUser(expired);
    share(stale);
    expect(await requestSessionFromTabs(100)).toBeNull();
  });

  it('after a sign-out in another tab, open tabs stop handing their session out, until they sign in anew', async () => {
    const open = tab();
    await open.storeUser(withRefreshToken());
    share(open);

    announceSignOut();
    // The open tab hears of the sign-out when the channel delivers it; from then on no request gets an answer.
    await vi.waitFor(async () => expect(await requestSessionFromTabs(100)).toBeNull());

    await open.events.load(withRefreshToken());
    expect((await requestSessionFromTabs())?.access_token).toBe('access-token');
  });

  it('loads the user another tab handed over, so the auth state follows without leaving the page', async () => {
    const open = tab();
    await open.storeUser(withRefreshToken());
    share(open);
    const fresh = tab();
    const loaded = vi.fn();
    fresh.events.addUserLoaded(loaded);
    const frame = vi.fn(async () => null);

    expect(await restoreSession(fresh, frame)).toBe(true);
    expect((await fresh.getUser())?.access_token).toBe('access-token');
    expect(loaded).toHaveBeenCalledOnce();
    expect(frame).not.toHaveBeenCalled();
  });

  it('asks the provider in a hidden frame only when this browser signed in before and the provider allows it', async () => {
    const fresh = tab();
    const frame = vi.fn<() => Promise<User | null>>().mockRejectedValue(new Error('login_required'));

    expect(await restoreSession(fresh, frame)).toBe(false);
    expect(frame).not.toHaveBeenCalled();

    localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
    // A provider that refuses frames (Cognito): no frame at all.
    expect(await restoreSession(fresh, null)).toBe(false);

    expect(await restoreSession(fresh, frame)).toBe(false);
    expect(frame).toHaveBeenCalledOnce();
    // The provider's session is over: the next new tab goes straight to the sign-in page.
    expect(localStorage.getItem(SIGNED_IN_HINT_KEY)).toBeNull();

    localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
    frame.mockResolvedValue(signedInUser());
    const loaded = vi.fn();
    fresh.events.addUserLoaded(loaded);
    expect(await restoreSession(fresh, frame)).toBe(true);
    // The frame's user becomes the app's user.
    expect((await fresh.getUser())?.profile.sub).toBe('member-1');
    expect(loaded).toHaveBeenCalledOnce();
  });
});
