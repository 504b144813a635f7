import type { ListSortOption } from '@ums/contracts/lists';

export const PROMOTIONAL_PRODUCTS = {
  title: 'Promotional Products',
  search: 'Search memberships and products',
  sorts: [
    { value: '', label: 'Membership (A to Z)' },
    { value: '-membershipName', label: 'Membership (Z to A)' },
    { value: 'productName', label: 'Product (A to Z)' },
    { value: '-productName', label: 'Product (Z to A)' },
  ] satisfies readonly ListSortOption<'promotionalProduct'>[],
  loading: 'Loading promotional products...',
  loadFailed: 'Failed to load data',
  filter: 'Membership',
  all: 'All memberships',
  empty: 'No membership promotes any product yet.',
  emptyFiltered: 'This membership promotes no products.',
  columns: { membership: 'Membership', product: 'Product', productId: 'Product ID' },
  count: (n: number) => `${n} ${n === 1 ? 'link' : 'links'}`,
} as const;
