import type { PaymentHistoryEntry } from '@ums/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { listOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';

export const paymentHistoryQueryOptions = (api: () => Promise<ApiClient>) =>
  queryOptions({
    queryKey: ['payment-history'] as const,
    queryFn: async () => listOf<PaymentHistoryEntry>(await (await api()).get('/PaymentHistory')),
  });

export function usePaymentHistory(enabled: boolean) {
  return useQuery({ ...paymentHistoryQueryOptions(useApi()), enabled });
}
