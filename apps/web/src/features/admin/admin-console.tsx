import { PersonRegular } from '@fluentui/react-icons';
import { lazy, Suspense, type ReactElement } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { NotFound } from '../../components/not-found.js';
import { Spinner } from '../../components/spinner.js';
import { adminPaths } from './admin-paths.js';
import { AppShell, type NavEntry } from '../shell/index.js';
import { ADMIN_ENTRIES } from './admin-navigation.js';
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

/** "UMS Admin": a separate chunk, so members never download it. */
export default function AdminConsole() {
  const { pathname } = useLocation();
  const current = pathname.replace(/\/+$/, '') || '/';
  const entries: NavEntry[] = ADMIN_ENTRIES.map((entry) => ({
    ...entry,
    icon: icons[entry.key],
    // A page under an entry (a member, a membership) keeps that entry marked.
    active: current === entry.href || (entry.key !== 'dashboard' && current.startsWith(`${entry.href}/`)),
  }));
  return (
    <AppShell title={ADMIN_TITLE} navLabel={ADMIN_NAV_LABEL} entries={entries}>
      <Suspense fallback={<Spinner label={ADMIN_LOADING} />}>
        <Routes>
          <Route index element={<AdminDashboard />} />
          <Route path="memberships" element={<MembershipsList />} />
          <Route path="memberships/:membershipId" element={<MembershipFormPage />} />
          <Route path="discount-packages" element={<DiscountPackagesList />} />
          <Route path="products" element={<ProductsPage />} />
          <Route path="promotional-products" element={<PromotionalProductsPage />} />
          <Route path="members" element={<MembersPage />} />
          <Route path="members/:memberId" element={<MemberPage />} />
          <Route path="activity" element={<ActivityPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="*" element={<NotFound home={adminPaths.dashboard} />} />
        </Routes>
      </Suspense>
    </AppShell>
  );
}
