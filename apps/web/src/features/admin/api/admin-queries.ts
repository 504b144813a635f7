import type {
  CatalogRefreshResult,
  DiscountPackage,
  DiscountPackageInput,
  Membership,
  MembershipInput,
  Product,
  PromotionalProduct,
  PromotionalProductLink,
} from '@ums/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { firstOf, listOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';

type Api = () => Promise<ApiClient>;

/** One key per resource, so a write refreshes exactly the lists it changes. */
export const adminKeys = {
  products: ['admin', 'products'] as const,
  memberships: ['admin', 'memberships'] as const,
  membership: (id: number) => ['admin', 'memberships', id] as const,
  discountPackages: ['admin', 'discount-packages'] as const,
  promotionalProducts: ['admin', 'promotional-products'] as const,
};

export const productsQuery = (api: Api) =>
  queryOptions({
    queryKey: adminKeys.products,
    queryFn: async () => listOf<Product>(await (await api()).get('/product')),
  });

export const membershipsQuery = (api: Api) =>
  queryOptions({
    queryKey: adminKeys.memberships,
    queryFn: async () => listOf<Membership>(await (await api()).get('/membership')),
  });

export const membershipQuery = (api: Api, id: number) =>
  queryOptions({
    queryKey: adminKeys.membership(id),
    queryFn: async () => firstOf<Membership>(await (await api()).get(`/membership/${id}`)),
  });

export const discountPackagesQuery = (api: Api) =>
  queryOptions({
    queryKey: adminKeys.discountPackages,
    queryFn: async () => listOf<DiscountPackage>(await (await api()).get('/discountPackage')),
  });

export const promotionalProductsQuery = (api: Api) =>
  queryOptions({
    queryKey: adminKeys.promotionalProducts,
    queryFn: async () => listOf<PromotionalProduct>(await (await api()).get('/promotionalProduct')),
  });

export const useProducts = () => useQuery(productsQuery(useApi()));
export const useMemberships = () => useQuery(membershipsQuery(useApi()));
export const useDiscountPackages = () => useQuery(discountPackagesQuery(useApi()));
export const usePromotionalProducts = () => useQuery(promotionalProductsQuery(useApi()));
export function useMembership(id: number | null) {
  const api = useApi();
  return useQuery({ ...membershipQuery(api, id ?? 0), enabled: id !== null });
}

/** The API calls of SPEC section 7 the admin screens make, without caching concerns. */
export function adminCalls(api: Api) {
  return {
    createMembership: async (input: MembershipInput) =>
      firstOf<Membership>(await (await api()).post('/membership', input)),
    updateMembership: async (id: number, input: MembershipInput) =>
      firstOf<Membership>(await (await api()).put(`/membership/${id}`, { ...input, membershipId: id })),
    deleteMembership: async (id: number) => (await api()).delete(`/membership/${id}`),
    addPromotionalProducts: async (links: PromotionalProductLink[]) =>
      (await api()).post('/promotionalProduct/batch', links),
    removePromotionalProduct: async (link: PromotionalProductLink) => (await api()).delete('/promotionalProduct', link),
    createPackage: async (input: DiscountPackageInput) =>
      firstOf<DiscountPackage>(await (await api()).post('/discountPackage', input)),
    updatePackage: async (id: number, input: DiscountPackageInput) =>
      firstOf<DiscountPackage>(await (await api()).put(`/discountPackage/${id}`, { ...input, discountPackageId: id })),
    deletePackage: async (id: number) => (await api()).delete(`/discountPackage/${id}`),
    setPackagePrice: async (discountPackageId: number, productId: number, price: number | null) =>
      (await api()).put('/discountPackageProduct', { discountPackageId, productId, price }),
    addPackageProduct: async (discountPackageId: number, productId: number) =>
      (await api()).post('/discountPackageProduct', { discountPackageId, productId }),
    removePackageProduct: async (discountPackageId: number, productId: number) =>
      (await api()).delete('/discountPackageProduct', { discountPackageId, productId }),
    /** The refresh's counts and the server's one-line summary of them. */
    refreshCatalog: async () => {
      const answer = await (await api()).get<{ message?: string }>('/product/refresh');
      return { result: firstOf<CatalogRefreshResult>(answer), message: answer?.message ?? '' };
    },
  };
}
export type AdminCalls = ReturnType<typeof adminCalls>;

export function useAdminCalls(): AdminCalls {
  return adminCalls(useApi());
}

/** Refreshes every admin list after a write: counts on the dashboard depend on all of them. */
export function useRefreshAdminLists() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['admin'] });
}

export function useRefreshCatalog() {
  const calls = useAdminCalls();
  const refresh = useRefreshAdminLists();
  return useMutation({ mutationFn: calls.refreshCatalog, onSettled: refresh });
}
