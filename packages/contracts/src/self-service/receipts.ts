/** Receipts of members' orders (free of any schema library: the browser imports it). */

/** What a receipt (the PDF) says. */
export const RECEIPT_TEXTS = {
  title: 'Receipt',
  hsaLine: 'Itemized receipt for health testing services',
  billedTo: 'Billed to',
  orderNumber: 'Order number',
  date: 'Date',
  status: 'Status',
  product: 'Product',
  price: 'Price',
  subtotal: 'Subtotal',
  discounts: 'Discounts',
  total: 'Total',
  priceNotRecorded: 'Prices of the items of this order were not recorded; the total is what was charged.',
  tooMany: 'Too many receipts in a short time. Please wait a minute and try again.',
} as const;

/** Receipts a member may download per minute (each PDF is rendered on the server). */
export const RECEIPTS_PER_MINUTE = 20;

/** The payment history's receipt downloads. */
export const RECEIPT_ACTIONS = {
  action: 'Receipt',
  actionLabel: (orderId: number) => `Download the receipt for order #${orderId}`,
  allForYear: (year: number) => `Download all receipts for ${year}`,
  downloadFailed: 'The download did not work. Please try again.',
} as const;

/** The file a receipt downloads as. */
export const receiptFileName = (orderId: number) => `receipt-${orderId}.pdf`;
export const yearReceiptsFileName = (year: number) => `receipts-${year}.pdf`;
