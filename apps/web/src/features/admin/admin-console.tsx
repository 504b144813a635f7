import {
  BoxMultipleRegular,
  GiftRegular,
  HomeRegular,
  PeopleTeamRegular,
  SettingsRegular,
  TagMultipleRegular,
} from '@fluentui/react-icons';
import type { ReactElement } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { NotFound } from '../../components/not-found.js';
import { paths } from '../../config/paths.js';
import { AppShell, type NavEntry } from '../shell/index.js';
import { ADMIN_ENTRIES } from './admin-navigation.js';
import { ADMIN_NAV_LABEL, ADMIN_TITLE } from './messages.js';
import { AdminDashboard } from './dashboard/admin-dashboard.js';
import { DiscountPackagesList } from './discount-packages/discount-packages-list.js';
import { MembershipFormPage } from './memberships/membership-form-page.js';
import { MembershipsList } from './memberships/memberships-list.js';
import { ProductsPage } from './products/products-page.js';
import { PromotionalProductsPage } from './promotional-products/promotional-products-page.js';
import { SettingsPage } from './settings/settings-page.js';

const icons: Record<(typeof ADMIN_ENTRIES)[number]['key'], ReactElement> = {
  dashboard: <HomeRegular />,
  memberships: <PeopleTeamRegular />,
  'discount-packages': <TagMultipleRegular />,
  products: <BoxMultipleRegular />,
  'promotional-products': <GiftRegular />,
  settings: <SettingsRegular />,
};

/** "UMS Admin": a separate chunk, so members never download it. */
export default function AdminConsole() {
  const { pathname } = useLocation();
  const current = pathname.replace(/\/+$/, '') || '/';
  const entries: NavEntry[] = ADMIN_ENTRIES.map((entry) => ({
    ...entry,
    icon: icons[entry.key],
    active: current === entry.href,
  }));
  return (
    <AppShell title={ADMIN_TITLE} navLabel={ADMIN_NAV_LABEL} entries={entries}>
      <Routes>
        <Route index element={<AdminDashboard />} />
        <Route path="memberships" element={<MembershipsList />} />
        <Route path="memberships/:membershipId" element={<MembershipFormPage />} />
        <Route path="discount-packages" element={<DiscountPackagesList />} />
        <Route path="products" element={<ProductsPage />} />
        <Route path="promotional-products" element={<PromotionalProductsPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="*" element={<NotFound home={paths.admin.dashboard} />} />
      </Routes>
    </AppShell>
  );
}
