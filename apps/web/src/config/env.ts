import type { ClientConfig } from '@ums/contracts';
import { CONFIG_ERROR } from '../lib/messages.js';

export type { ClientConfig };

const REQUIRED_TEXT: (keyof ClientConfig)[] = [
  'authority',
  'clientId',
  'scope',
  'redirectPath',
  'silentRenewPath',
  'logoutUrl',
  'groupsClaim',
  'roleClaim',
  'adminGroup',
  'supportGroup',
  'catalogGroup',
  'apiBase',
];

/** The element the server writes the configuration into when it serves the page. */
export const CONFIG_ELEMENT_ID = 'ums-config';

function checked(config: Partial<ClientConfig> | null): ClientConfig {
  const missing = REQUIRED_TEXT.filter((key) => typeof config?.[key] !== 'string' || !config[key]);
  if (!config || missing.length > 0) throw new Error(`${CONFIG_ERROR} (missing ${missing.join(', ')})`);
  return {
    ...(config as ClientConfig),
    frameSignIn: config.frameSignIn === true,
    dpop: config.dpop === true,
    deletionGraceDays: typeof config.deletionGraceDays === 'number' ? config.deletionGraceDays : null,
    analyticsUrl: config.analyticsUrl ?? null,
    companionApps: Array.isArray(config.companionApps) ? config.companionApps : [],
    company: config.company ?? { name: '', termsUrl: '/legal/terms.html', privacyUrl: '/legal/privacy.html' },
  };
}

/**
 * The run-time configuration the server publishes: one build serves every environment. The page carries it (no
 * round trip before the app starts); a page without it (the development server) asks `/api/config`. The server
 * answers it through the contracts' zod schema; the browser checks only what it cannot work without, keeping zod
 * out of the bundle.
 */
export async function loadClientConfig(
  fetchImpl: typeof fetch = fetch,
  page: Pick<Document, 'getElementById'> = document,
): Promise<ClientConfig> {
  const inline = page.getElementById(CONFIG_ELEMENT_ID)?.textContent;
  if (inline) return checked(JSON.parse(inline) as Partial<ClientConfig> | null);
  const response = await fetchImpl('/api/config', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${CONFIG_ERROR} (status ${response.status})`);
  return checked((await response.json()) as Partial<ClientConfig> | null);
}
