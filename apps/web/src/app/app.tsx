import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { AuthProvider } from 'react-oidc-context';
import { BrowserRouter } from 'react-router';
import type { ClientConfig } from '../config/env.js';
import { oidcSettings } from '../features/auth/index.js';
import { ApiProvider } from '../lib/api-context.js';
import { createQueryClient } from '../lib/query-client.js';
import { AppRoutes } from './app-routes.js';
import { ClientConfigProvider } from '../lib/client-config-context.js';
import { useGlobalStyles } from './global-styles.js';
import { lightTheme } from '../config/theme.js';

export function ThemeRoot({ children }: { children: ReactNode }) {
  useGlobalStyles();
  return <FluentProvider theme={lightTheme}>{children}</FluentProvider>;
}

export function App({ config }: { config: ClientConfig }) {
  const [queryClient] = useState(createQueryClient);
  const settings = useMemo(() => oidcSettings(config, window.location.origin), [config]);
  return (
    <ThemeRoot>
      <ClientConfigProvider config={config}>
        <AuthProvider {...settings}>
          <ApiProvider baseUrl={config.apiBase}>
            <QueryClientProvider client={queryClient}>
              <BrowserRouter>
                <AppRoutes />
              </BrowserRouter>
            </QueryClientProvider>
          </ApiProvider>
        </AuthProvider>
      </ClientConfigProvider>
    </ThemeRoot>
  );
}
