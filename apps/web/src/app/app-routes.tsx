import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { StatusScreen } from '../components/status-screen.js';
import { paths } from '../config/paths.js';
import { AdminGate, AUTH_MESSAGES, CallbackPage, RequireAuth, SilentRenewRetry } from '../features/auth/index.js';
import { SignOutProvider } from '../features/shell/index.js';
import { PageViewReporter } from './page-view-reporter.js';

// Each area is its own chunk: a member never downloads the admin console.
const AccountArea = lazy(() => import('../features/account/index.js'));
const AdminConsole = lazy(() => import('../features/admin/index.js'));
const LogoutCompletePage = lazy(() =>
  import('../features/logout/index.js').then((m) => ({ default: m.LogoutCompletePage })),
);

const chunk = (element: ReactNode) => (
  <Suspense fallback={<StatusScreen label={AUTH_MESSAGES.loading} holdsFirstPaint />}>{element}</Suspense>
);

export function AppRoutes() {
  return (
    <SignOutProvider>
      <SilentRenewRetry />
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
