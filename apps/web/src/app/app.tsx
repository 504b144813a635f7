import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import type { ClientConfig } from '../config/env.js';
import { SessionProvider } from '../features/auth/index.js';
import { ApiProvider } from '../lib/api-context.js';
import { createQueryClient } from '../lib/query-client.js';
import { AppRoutes } from './app-routes.js';
import { ClientConfigProvider } from '../lib/client-config-context.js';

/** Fluent's context (focus, portals); the theme's CSS variables are already on the page (vite.config.ts). */
export function ThemeRoot({ children }: { children: ReactNode }) {
  return <FluentProvider>{children}</FluentProvider>;
}

export function App({ config }: { config: ClientConfig }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <ThemeRoot>
      <ClientConfigProvider config={config}>
        <SessionProvider config={config}>
          <ApiProvider baseUrl={config.apiBase}>
            <QueryClientProvider client={queryClient}>
              <BrowserRouter>
                <AppRoutes />
              </BrowserRouter>
            </QueryClientProvider>
          </ApiProvider>
        </SessionProvider>
      </ClientConfigProvider>
    </ThemeRoot>
  );
}
