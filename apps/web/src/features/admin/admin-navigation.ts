import type { ConsoleRight } from '@ums/contracts/roles';
import { adminPaths } from './admin-paths.js';

/** SPEC section 2: the admin console's navigation set, highlighted by exact path; each entry for the roles its right names. */
export const ADMIN_ENTRIES = [
  { key: 'dashboard', href: adminPaths.dashboard, label: 'Dashboard', right: 'catalog' },
  { key: 'memberships', href: adminPaths.memberships, label: 'Memberships', right: 'catalog' },
  { key: 'discount-packages', href: adminPaths.discountPackages, label: 'Discount Packages', right: 'catalog' },
  { key: 'products', href: adminPaths.products, label: 'Products', right: 'catalog' },
  {
    key: 'promotional-products',
    href: adminPaths.promotionalProducts,
    label: 'Promotional Products',
    right: 'catalog',
  },
  { key: 'members', href: adminPaths.members, label: 'Members', right: 'members' },
  { key: 'activity', href: adminPaths.activity, label: 'Activity', right: 'console' },
  { key: 'settings', href: adminPaths.settings, label: 'Settings', right: 'console' },
] as const satisfies readonly { key: string; href: string; label: string; right: ConsoleRight }[];
