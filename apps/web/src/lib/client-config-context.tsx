import { createContext, useContext, type ReactNode } from 'react';
import type { ClientConfig } from '../config/env.js';

const ClientConfigContext = createContext<ClientConfig | null>(null);

export function ClientConfigProvider({ config, children }: { config: ClientConfig; children: ReactNode }) {
  return <ClientConfigContext.Provider value={config}>{children}</ClientConfigContext.Provider>;
}

export function useClientConfig(): ClientConfig {
  const config = useContext(ClientConfigContext);
  if (!config) throw new Error('useClientConfig must be used inside ClientConfigProvider');
  return config;
}
