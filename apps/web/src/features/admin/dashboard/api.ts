import type { AdminOverview } from '@ums/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { firstOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';

export const overviewKeys = { all: ['admin', 'overview'] as const };

/** The dashboard's figures in one call; read again each time the dashboard opens (any write may change them). */
export const overviewQuery = (api: () => Promise<ApiClient>) =>
  queryOptions({
    queryKey: overviewKeys.all,
    queryFn: async () => firstOf<AdminOverview>(await (await api()).get('/admin/overview')),
    staleTime: 0,
  });

export const useOverview = () => useQuery(overviewQuery(useApi()));
