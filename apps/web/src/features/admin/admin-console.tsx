import { PersonRegular } from '@fluentui/react-icons';
import { lazy, Suspense, type ReactElement } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import type { ConsoleRight } from '@ums/contracts/roles';
import { NotFound } from '../../components/not-found.js';
import { Spinner } from '../../components/spinner.js';
import { adminPaths } from './admin-paths.js';
import { AppShell, type NavEntry } from '../shell/index.js';
import { ADMIN_ENTRIES } from './admin-navigation.js';
import { RoleRoute, useConsoleRights } from './console-roles.js';
import { AdminDashboard } from './dashboard/admin-dashboard.js';
import { ADMIN_LOADING, ADMIN_NAV_LABEL, ADMIN_TITLE } from './messages.js';
import {
  BoxMultipleRegular,
  GiftRegular,
  HistoryRegular,
  HomeRegular,
  PeopleTeamRegular,
  SettingsRegular,
  TagMultipleRegular,
} from './components/icons.js';

// The dashboard comes with the console (its first screen); every other page is its own chunk, fetched when opened.
const MembershipsList = lazy(() =>
  import('./memberships/memberships-list.js').then((m) => ({ default: m.MembershipsList })),
);
const MembershipFormPage = lazy(() =>
  import('./memberships/membership-form-page.js').then((m) => ({ default: m.MembershipFormPage })),
);
const DiscountPackagesList = lazy(() =>
  import('./discount-packages/discount-packages-list.js').then((m) => ({ default: m.DiscountPackagesList })),
);
const ProductsPage = lazy(() => import('./products/products-page.js').then((m) => ({ default: m.ProductsPage })));
const PromotionalProductsPage = lazy(() =>
  import('./promotional-products/promotional-products-page.js').then((m) => ({ default: m.PromotionalProductsPage })),
);
const MembersPage = lazy(() => import('./members/members-page.js').then((m) => ({ default: m.MembersPage })));
const MemberPage = lazy(() => import('./members/member-page.js').then((m) => ({ default: m.MemberPage })));
const ActivityPage = lazy(() => import('./activity/activity-page.js').then((m) => ({ default: m.ActivityPage })));
const SettingsPage = lazy(() => import('./settings/settings-page.js').then((m) => ({ default: m.SettingsPage })));

const icons: Record<(typeof ADMIN_ENTRIES)[number]['key'], ReactElement> = {
  dashboard: <HomeRegular />,
  memberships: <PeopleTeamRegular />,
  'discount-packages': <TagMultipleRegular />,
  products: <BoxMultipleRegular />,
  'promotional-products': <GiftRegular />,
  members: <PersonRegular />,
  activity: <HistoryRegular />,
  settings: <SettingsRegular />,
};

/**
 * "UMS Admin": a separate chunk, so members never download it. Each role sees the entries its rights allow; an address
 * outside them says what the role does not include. A role without the dashboard (Support) starts at its first entry.
 */
export default function AdminConsole() {
  const { pathname } = useLocation();
  const { can } = useConsoleRights();
  const current = pathname.replace(/\/+$/, '') || '/';
  const allowed = ADMIN_ENTRIES.filter((entry) => can(entry.right));
  const start = allowed[0]?.href ?? adminPaths.settings;
  const only = (right: ConsoleRight, element: ReactElement) => (
    <RoleRoute right={right} home={start}>
      {element}
    </RoleRoute>
  );
  const entries: NavEntry[] = allowed.map((entry) => ({
    ...entry,
    icon: icons[entry.key],
    // A page under an entry (a member, a membership) keeps that entry marked.
    active: current === entry.href || (entry.key !== 'dashboard' && current.startsWith(`${entry.href}/`)),
  }));
  return (
    <AppShell title={ADMIN_TITLE} navLabel={ADMIN_NAV_LABEL} entries={entries}>
      <Suspense fallback={<Spinner label={ADMIN_LOADING} />}>
        <Routes>
          <Route index element={can('catalog') ? <AdminDashboard /> : <Navigate to={start} replace />} />
          <Route path="memberships" element={only('catalog', <MembershipsList />)} />
          <Route path="memberships/:membershipId" element={only('catalog', <MembershipFormPage />)} />
          <Route path="discount-packages" element={only('catalog', <DiscountPackagesList />)} />
          <Route path="products" element={only('catalog', <ProductsPage />)} />
          <Route path="promotional-products" element={only('catalog', <PromotionalProductsPage />)} />
          <Route path="members" element={only('members', <MembersPage />)} />
          <Route path="members/:memberId" element={only('members', <MemberPage />)} />
          <Route path="activity" element={<ActivityPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="*" element={<NotFound home={start} />} />
        </Routes>
      </Suspense>
    </AppShell>
  );
}
