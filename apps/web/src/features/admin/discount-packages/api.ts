import type {
  DiscountPackage,
  DiscountPackageInput,
  DiscountPackagePriceInput,
  DiscountPackageProductKey,
} from '@ums/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { firstOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';
import { usePagedList, type ListView } from '../../../lib/paged-list.js';
import { invalidateAll } from '../../../lib/query-client.js';
import { membershipKeys } from '../memberships/api.js';

export const discountPackageKeys = {
  all: ['admin', 'discount-packages'] as const,
};

/** The packages a page at a time, searched and sorted on the server. */
export const useDiscountPackageList = (view: ListView) =>
  usePagedList<DiscountPackage>(discountPackageKeys.all, '/discountPackage', view);

/** A write to packages or their products reloads the package list, whether it succeeded or not. */
function usePackageMutation<Variables, Result>(
  write: (api: ApiClient, variables: Variables) => Promise<Result>,
  alsoChanges: readonly (readonly unknown[])[] = [],
) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: Variables) => write(await api(), variables),
    onSettled: () => invalidateAll(queryClient, [discountPackageKeys.all, ...alsoChanges]),
  });
}

/** Creates (id null) or renames a package; memberships show their package's name, so they reload too. */
export const useSavePackage = () =>
  usePackageMutation(
    async (api, { id, input }: { id: number | null; input: DiscountPackageInput }) =>
      firstOf<DiscountPackage>(
        id === null
          ? await api.post('/discountPackage', input)
          : await api.put(`/discountPackage/${id}`, { ...input, discountPackageId: id }),
      ),
    [membershipKeys.all],
  );

/** The server refuses (409) to delete a package a membership uses, so no membership changes. */
export const useDeletePackage = () => usePackageMutation((api, id: number) => api.delete(`/discountPackage/${id}`));

/** Sets a product's package price; null removes it. */
export const useSetPackagePrice = () =>
  usePackageMutation((api, input: DiscountPackagePriceInput) => api.put('/discountPackageProduct', input));

/** Adds products one call each (SPEC section 7 has no batch call for package products). */
export const useAddPackageProducts = () =>
  usePackageMutation(
    async (api, { discountPackageId, productIds }: { discountPackageId: number; productIds: number[] }) => {
      for (const productId of productIds) await api.post('/discountPackageProduct', { discountPackageId, productId });
    },
  );

export const useRemovePackageProduct = () =>
  usePackageMutation((api, key: DiscountPackageProductKey) => api.delete('/discountPackageProduct', key));
