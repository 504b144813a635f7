import type { CatalogRefreshResult, Product } from '@ums/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { firstOf } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';
import { usePagedList, type ListView } from '../../../lib/paged-list.js';
import { invalidateAll } from '../../../lib/query-client.js';
import { discountPackageKeys } from '../discount-packages/api.js';
import { membershipKeys } from '../memberships/api.js';
import { promotionalProductKeys } from '../promotional-products/api.js';

export const productKeys = {
  all: ['admin', 'products'] as const,
};

/** The catalog a page at a time, searched and sorted on the server (it may hold thousands of products). */
export const useProductList = (view: ListView) => usePagedList<Product>(productKeys.all, '/product', view);

/**
 * Reloads the catalog from its source: the refresh's counts and the server's one-line summary of them. Product
 * names and prices appear in the package, membership and promotional lists too, so those reload as well.
 */
export function useRefreshCatalog() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const answer = await (await api()).get<{ message?: string }>('/product/refresh');
      return { result: firstOf<CatalogRefreshResult>(answer), message: answer?.message ?? '' };
    },
    onSettled: () =>
      invalidateAll(queryClient, [
        productKeys.all,
        discountPackageKeys.all,
        membershipKeys.all,
        promotionalProductKeys.all,
      ]),
  });
}
