import type { ListSortField } from '@ums/contracts/lists';

/** The payment history call's sort fields, one per column. */
export type PaymentColumn = ListSortField<'paymentHistory'>;
export type SortDirection = 'ascending' | 'descending';
export interface PaymentSort {
  column: PaymentColumn;
  direction: SortDirection;
}

/** Newest first, as a statement reads. */
export const DEFAULT_PAYMENT_SORT: PaymentSort = { column: 'date', direction: 'descending' };

/** The payment history call's sort for a column and direction ("-date" is newest first). */
export const serverSort = (sort: PaymentSort) => `${sort.direction === 'descending' ? '-' : ''}${sort.column}`;

/** A click on the sorted column flips it; another column starts ascending. */
export function nextSort(current: PaymentSort, column: PaymentColumn): PaymentSort {
  if (current.column === column) {
    return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  }
  return { column, direction: 'ascending' };
}
