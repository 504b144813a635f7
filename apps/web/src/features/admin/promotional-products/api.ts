import type { PromotionalProduct } from '@ums/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { listOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';

export const promotionalProductKeys = {
  all: ['admin', 'promotional-products'] as const,
  list: () => [...promotionalProductKeys.all, 'list'] as const,
};

export const promotionalProductsQuery = (api: () => Promise<ApiClient>) =>
  queryOptions({
    queryKey: promotionalProductKeys.list(),
    queryFn: async () => listOf<PromotionalProduct>(await (await api()).get('/promotionalProduct')),
  });

export const usePromotionalProducts = () => useQuery(promotionalProductsQuery(useApi()));
