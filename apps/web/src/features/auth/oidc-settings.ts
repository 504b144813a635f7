import { groupsFromClaim } from '@ums/contracts/claims';
import { rolesOf, type ConsoleRole, type RoleGroups } from '@ums/contracts/roles';
import { WebStorageStateStore, type UserManagerSettings } from 'oidc-client-ts';
import type { ClientConfig } from '../../config/env.js';
import { TabDPoPStore } from './dpop-key-store.js';

/**
 * Authorization code + PKCE against the configured provider; tokens stay in this tab's session storage. With DPoP
 * the tokens are bound to a key pair the browser makes and cannot export (kept in IndexedDB, one per tab, all removed
 * at sign-out): a copied token is of no use without it. The authorization code is bound to it too.
 */
export function userManagerSettings(config: ClientConfig, origin: string): UserManagerSettings {
  return {
    authority: config.authority,
    client_id: config.clientId,
    redirect_uri: `${origin}${config.redirectPath}`,
    silent_redirect_uri: `${origin}${config.silentRenewPath}`,
    post_logout_redirect_uri: `${origin}/`,
    scope: config.scope,
    response_type: 'code',
    automaticSilentRenew: true,
    loadUserInfo: false,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    ...(config.dpop ? { dpop: { store: new TabDPoPStore(), bind_authorization_code: true } } : {}),
  };
}

/** The group each console role is carried as, as the server configured them. */
export const roleGroupsOf = (config: ClientConfig): RoleGroups => ({
  Admin: config.adminGroup,
  Support: config.supportGroup,
  Catalog: config.catalogGroup,
});

/** The console roles the profile's groups claim carries (Admin, Support, Catalog; see @ums/contracts/roles). */
export function consoleRoles(profile: Record<string, unknown> | undefined, config: ClientConfig): ConsoleRole[] {
  return rolesOf(groupsFromClaim(profile?.[config.groupsClaim]), roleGroupsOf(config));
}
