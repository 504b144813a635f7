import type { AdminOverview } from '@ums/contracts';
import type { AdminMetrics, MetricsInterval } from '@ums/contracts/metrics';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { firstOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';

export const overviewKeys = {
  all: ['admin', 'overview'] as const,
  metrics: (range: MetricsRange) => ['admin', 'metrics', range] as const,
};

/** The dashboard's figures in one call; read again each time the dashboard opens (any write may change them). */
export const overviewQuery = (api: () => Promise<ApiClient>) =>
  queryOptions({
    queryKey: overviewKeys.all,
    queryFn: async () => firstOf<AdminOverview>(await (await api()).get('/admin/overview')),
    staleTime: 0,
  });

export const useOverview = () => useQuery(overviewQuery(useApi()));

export type MetricsRange = { from: string; to: string; interval: MetricsInterval };

/**
 * The business over a range (`GET /api/admin/metrics`). The server keeps an answer a minute, so the same range is not
 * asked again sooner; while a new range loads, the charts keep the last one.
 */
export const metricsQuery = (api: () => Promise<ApiClient>, range: MetricsRange) =>
  queryOptions({
    queryKey: overviewKeys.metrics(range),
    queryFn: async () =>
      firstOf<AdminMetrics>(await (await api()).get(`/admin/metrics?${new URLSearchParams(range).toString()}`)),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });

export const useMetrics = (range: MetricsRange | null) => {
  const api = useApi();
  return useQuery({ ...metricsQuery(api, range ?? { from: '', to: '', interval: 'day' }), enabled: range !== null });
};
