import { clientConfigSchema, type ClientConfig } from '@ums/contracts';

export type { ClientConfig };

export const CONFIG_ERROR = 'The application could not load its configuration. Please reload the page.';

/** The run-time configuration the server publishes: one build serves every environment. */
export async function loadClientConfig(fetchImpl: typeof fetch = fetch): Promise<ClientConfig> {
  const response = await fetchImpl('/api/config', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${CONFIG_ERROR} (status ${response.status})`);
  return clientConfigSchema.parse(await response.json());
}
