import { adminPaths } from './admin-paths.js';

/** SPEC section 2: the admin console's navigation set, highlighted by exact path. */
export const ADMIN_ENTRIES = [
  { key: 'dashboard', href: adminPaths.dashboard, label: 'Dashboard' },
  { key: 'memberships', href: adminPaths.memberships, label: 'Memberships' },
  { key: 'discount-packages', href: adminPaths.discountPackages, label: 'Discount Packages' },
  { key: 'products', href: adminPaths.products, label: 'Products' },
  { key: 'promotional-products', href: adminPaths.promotionalProducts, label: 'Promotional Products' },
  { key: 'members', href: adminPaths.members, label: 'Members' },
  { key: 'activity', href: adminPaths.activity, label: 'Activity' },
  { key: 'settings', href: adminPaths.settings, label: 'Settings' },
] as const;
