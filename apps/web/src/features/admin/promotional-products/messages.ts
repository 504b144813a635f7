export const PROMOTIONAL_PRODUCTS = {
  title: 'Promotional Products',
  loading: 'Loading promotional products...',
  loadFailed: 'Failed to load data',
  filter: 'Membership',
  all: 'All memberships',
  empty: 'No membership promotes any product yet.',
  emptyFiltered: 'This membership promotes no products.',
  columns: { membership: 'Membership', product: 'Product', productId: 'Product ID' },
  count: (n: number) => `${n} ${n === 1 ? 'link' : 'links'}`,
} as const;
