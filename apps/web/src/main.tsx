import './app/fonts.js';
import { UserManager } from 'oidc-client-ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, ThemeRoot } from './app/app.js';
import { StatusScreen } from './components/status-screen.js';
import { loadClientConfig } from './config/env.js';
import { removeFirstPaintWhenDrawn } from './lib/first-paint.js';
import { CONFIG_ERROR } from './lib/messages.js';
import { userManagerSettings } from './features/auth/index.js';

async function start(root: HTMLElement) {
  removeFirstPaintWhenDrawn(root);
  const view = createRoot(root);
  try {
    const config = await loadClientConfig();
    if (window.location.pathname === config.silentRenewPath) {
      // Inside the provider's hidden frame (the development server serves this page there; the product serves the
      // one-script silent-renew.html): hand the answer to the app and render nothing.
      await new UserManager(userManagerSettings(config, window.location.origin)).signinSilentCallback();
      return;
    }
    // A transition lets React render the first screen in slices, yielding to the browser between them (no long
    // task while the page becomes interactive).
    startTransition(() =>
      view.render(
        <StrictMode>
          <App config={config} />
        </StrictMode>,
      ),
    );
  } catch (error) {
    console.error(error);
    view.render(
      <ThemeRoot>
        <StatusScreen spinner={false} label={CONFIG_ERROR} />
      </ThemeRoot>,
    );
  }
}

const root = document.getElementById('root');
if (root) void start(root);
