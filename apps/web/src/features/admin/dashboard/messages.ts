export const OVERVIEW = {
  loading: 'Loading figures...',
  loadFailed: 'Failed to load data',
  figures: {
    memberships: 'Memberships',
    discountPackages: 'Discount Packages',
    products: 'Products',
    promotionalLinks: 'Promotional links',
  },
  mostPromoted: 'Most promoted products',
  nonePromoted: 'No product is promoted yet.',
  promotedBy: (n: number) => `${n} ${n === 1 ? 'membership' : 'memberships'}`,
} as const;

export const DASHBOARD_TEXT = {
  title: 'User Management System',
  subtitle: 'Admin Dashboard',
  tabs: { overview: 'Overview', memberships: 'Memberships', discountPackages: 'Discount Packages' },
} as const;
