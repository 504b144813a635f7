import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { StatusScreen } from '../components/status-screen.js';
import { paths } from '../config/paths.js';
import { AdminGate } from '../features/auth/admin-gate.js';
import { AUTH_MESSAGES } from '../features/auth/auth-messages.js';
import { CallbackPage } from '../features/auth/callback-page.js';
import { RequireAuth } from '../features/auth/require-auth.js';
import { useSilentRenewRetry } from '../features/auth/silent-renew-retry.js';
import { SignOutProvider } from '../features/shell/sign-out-provider.js';
import { PageViewReporter } from './page-view-reporter.js';

// Each area is its own chunk: a member never downloads the admin console.
const AccountArea = lazy(() => import('../features/account/account-area.js'));
const AdminConsole = lazy(() => import('../features/admin/admin-console.js'));
const LogoutCompletePage = lazy(() =>
  import('../features/logout/logout-complete-page.js').then((m) => ({ default: m.LogoutCompletePage })),
);

const chunk = (element: ReactNode) => (
  <Suspense fallback={<StatusScreen label={AUTH_MESSAGES.loading} />}>{element}</Suspense>
);

export function AppRoutes() {
  useSilentRenewRetry();
  return (
    <SignOutProvider>
      <PageViewReporter />
      <Routes>
        <Route path={paths.callback} element={<CallbackPage />} />
        <Route path={paths.logoutComplete} element={chunk(<LogoutCompletePage />)} />
        <Route element={<RequireAuth />}>
          <Route path="admin/*" element={<AdminGate>{chunk(<AdminConsole />)}</AdminGate>} />
          <Route path="*" element={chunk(<AccountArea />)} />
        </Route>
      </Routes>
    </SignOutProvider>
  );
}
