import { UserManager } from 'oidc-client-ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testConfig } from '../../test/render.js';
import { userManagerSettings } from './oidc-settings.js';
import { silentSignInAnswer } from './silent-answer.js';

afterEach(() => vi.restoreAllMocks());

describe('the hidden sign-in frame’s answer', () => {
  it('is the message oidc-client-ts itself posts from its silent callback, so the waiting page accepts it', async () => {
    const url = 'http://localhost/auth/silent-renew?code=abc&state=xyz';
    const posted = vi.spyOn(window.parent, 'postMessage').mockImplementation(() => undefined);
    await new UserManager(userManagerSettings(testConfig, 'http://localhost')).signinSilentCallback(url);
    expect(posted).toHaveBeenCalledOnce();
    expect(posted.mock.calls[0]![0]).toEqual(silentSignInAnswer(url));
  });
});
