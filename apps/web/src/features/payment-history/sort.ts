import type { PaymentHistoryEntry } from '@ums/contracts';

export type PaymentColumn = 'orderId' | 'productNames' | 'totalAmount' | 'date' | 'status';
export type SortDirection = 'ascending' | 'descending';
export interface PaymentSort {
  column: PaymentColumn;
  direction: SortDirection;
}

/** Newest first, as a statement reads. */
export const DEFAULT_PAYMENT_SORT: PaymentSort = { column: 'date', direction: 'descending' };

const collator = new Intl.Collator('en-US', { sensitivity: 'base', numeric: true });

function compare(a: PaymentHistoryEntry, b: PaymentHistoryEntry, column: PaymentColumn): number {
  switch (column) {
    case 'orderId':
      return a.orderId - b.orderId;
    case 'totalAmount':
      return Number(a.totalAmount) - Number(b.totalAmount);
    case 'date':
      return Date.parse(a.date) - Date.parse(b.date);
    case 'productNames':
      return collator.compare(a.productNames.join(', '), b.productNames.join(', '));
    case 'status':
      return collator.compare(a.status, b.status);
  }
}

export function sortPayments(entries: readonly PaymentHistoryEntry[], sort: PaymentSort): PaymentHistoryEntry[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  // Ties keep the order number order so the table never jumps.
  return [...entries].sort((a, b) => sign * compare(a, b, sort.column) || a.orderId - b.orderId);
}

/** A click on the sorted column flips it; another column starts ascending. */
export function nextSort(current: PaymentSort, column: PaymentColumn): PaymentSort {
  if (current.column === column) {
    return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  }
  return { column, direction: 'ascending' };
}
