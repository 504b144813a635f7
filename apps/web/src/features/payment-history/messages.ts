export const PAYMENT_HISTORY = {
  title: 'Payment History',
  signInFirst: 'Please log in to view your payment history',
  loading: 'Loading payment history...',
  empty: 'No payment history found.',
  error: (message: string) => `Error: ${message}`,
  loadFailed: 'Failed to load payment history',
  columns: {
    orderId: 'Order#',
    productNames: 'Products',
    totalAmount: 'Amount (USD)',
    date: 'Date',
    status: 'Status',
  },
  order: (id: number) => `#${id}`,
  showMore: (next: number, left: number) => `Show ${next} more (${left} not shown)`,
} as const;
