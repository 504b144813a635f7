import { describe, expect, it } from 'vitest';
import { testConfig } from '../../test/render.js';
import { TabDPoPStore } from './dpop-key-store.js';
import { userManagerSettings } from './oidc-settings.js';

describe('sign-in settings', () => {
  it("bind tokens and the authorization code to the browser's DPoP key when the provider does DPoP", () => {
    const settings = userManagerSettings({ ...testConfig, dpop: true }, 'https://members.example.com');
    expect(settings.dpop?.store).toBeInstanceOf(TabDPoPStore);
    expect(settings.dpop?.bind_authorization_code).toBe(true);
    expect(settings.redirect_uri).toBe('https://members.example.com/auth/callback');
  });

  it('send bearer tokens to a provider without DPoP (Cognito)', () => {
    expect(userManagerSettings({ ...testConfig, dpop: false }, 'https://members.example.com').dpop).toBeUndefined();
  });
});
