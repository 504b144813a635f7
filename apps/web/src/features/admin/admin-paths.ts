/**
 * The admin console's addresses, apart from `config/paths.ts`: the account page loads that file, and members never
 * need these.
 */
export const adminPaths = {
  dashboard: '/admin',
  memberships: '/admin/memberships',
  discountPackages: '/admin/discount-packages',
  products: '/admin/products',
  promotionalProducts: '/admin/promotional-products',
  members: '/admin/members',
  activity: '/admin/activity',
  settings: '/admin/settings',
} as const;
