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
import { ComingSoon } from '../../components/coming-soon.js';
import { NotFound } from '../../components/not-found.js';
import { paths } from '../../config/paths.js';
import { AppShell, type NavEntry } from '../shell/app-shell.js';
import { ADMIN_ENTRIES, ADMIN_NAV_LABEL, ADMIN_TITLE } from './admin-navigation.js';
import { AdminDashboard } from './dashboard/admin-dashboard.js';

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
        <Route path="memberships" element={<ComingSoon title="Memberships" />} />
        <Route path="discount-packages" element={<ComingSoon title="Discount Packages" />} />
        <Route path="products" element={<ComingSoon title="Products" />} />
        <Route path="promotional-products" element={<ComingSoon title="Promotional Products" />} />
        <Route path="settings" element={<ComingSoon title="Settings" />} />
        <Route path="*" element={<NotFound home={paths.admin.dashboard} />} />
      </Routes>
    </AppShell>
  );
}
