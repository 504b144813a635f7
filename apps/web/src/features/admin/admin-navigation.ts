import { paths } from '../../config/paths.js';

/** SPEC section 2: the admin console's navigation set, highlighted by exact path. */
export const ADMIN_ENTRIES = [
  { key: 'dashboard', href: paths.admin.dashboard, label: 'Dashboard' },
  { key: 'memberships', href: paths.admin.memberships, label: 'Memberships' },
  { key: 'discount-packages', href: paths.admin.discountPackages, label: 'Discount Packages' },
  { key: 'products', href: paths.admin.products, label: 'Products' },
  { key: 'promotional-products', href: paths.admin.promotionalProducts, label: 'Promotional Products' },
  { key: 'members', href: paths.admin.members, label: 'Members' },
  { key: 'activity', href: paths.admin.activity, label: 'Activity' },
  { key: 'settings', href: paths.admin.settings, label: 'Settings' },
] as const;
