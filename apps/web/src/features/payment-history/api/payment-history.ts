import type { PaymentHistoryEntry } from '@ums/contracts';
import { usePagedList } from '../../../lib/paged-list.js';
import { serverSort, type PaymentSort } from '../sort.js';

export const paymentHistoryKeys = { all: ['payment-history'] as const };

/** The member's orders a page at a time, sorted by the server (a member may have years of orders). */
export function usePaymentHistory(sort: PaymentSort, enabled: boolean) {
  return usePagedList<PaymentHistoryEntry>(
    paymentHistoryKeys.all,
    '/PaymentHistory',
    { q: '', sort: serverSort(sort) },
    enabled,
  );
}
