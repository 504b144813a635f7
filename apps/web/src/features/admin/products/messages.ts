import type { ListSortOption } from '@ums/contracts/lists';

export const PRODUCTS = {
  title: 'Products',
  loading: 'Loading products...',
  loadFailed: 'Failed to load products',
  refreshFailed: 'Failed to refresh the catalog',
  refresh: 'Refresh',
  refreshing: 'Refreshing...',
  search: 'Search products',
  sorts: [
    { value: '', label: 'Name (A to Z)' },
    { value: '-name', label: 'Name (Z to A)' },
    { value: 'retailPrice', label: 'Price (low to high)' },
    { value: '-retailPrice', label: 'Price (high to low)' },
    { value: 'productId', label: 'Product ID' },
  ] satisfies readonly ListSortOption<'product'>[],
  noMatch: (query: string) => `No products match "${query}".`,
  empty: 'The catalog is empty. Refresh it from its source.',
  columns: { name: 'Name', retailPrice: 'Retail Price', image: 'Image', productId: 'Product ID' },
} as const;
