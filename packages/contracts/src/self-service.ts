/**
 * Members' self-service beyond the specification (receipts, their data, closing the account), free of any schema
 * library (the browser imports it): the words members see and the constants both sides use.
 */

/** A closed account is deleted this many days after the member asked (`DELETION_GRACE_DAYS` changes it). */
export const DELETION_GRACE_DAYS = 30;

/** What a receipt says, in the PDF and around its download. */
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
  action: 'Receipt',
  actionLabel: (orderId: number) => `Download the receipt for order #${orderId}`,
  allForYear: (year: number) => `Download all receipts for ${year}`,
  noneForYear: (year: number) => `No orders in ${year}.`,
  downloadFailed: 'The download did not work. Please try again.',
} as const;

/** The file a receipt downloads as. */
export const receiptFileName = (orderId: number) => `receipt-${orderId}.pdf`;
export const yearReceiptsFileName = (year: number) => `receipts-${year}.pdf`;

/** "Download my data" (GDPR article 15 and 20). */
export const MY_DATA_TEXTS = {
  action: 'Download my data',
  detail: 'Everything we hold about you, as one JSON file.',
} as const;
export const myDataFileName = (day: string) => `my-data-${day}.json`;

/** Closing the account: the section's action, its dialog, the provider's page during the grace period, the mail. */
export const ACCOUNT_DELETION_TEXTS = {
  action: 'Close my account',
  title: 'Close your account?',
  explain: (days: number) =>
    `Your account and personal information will be deleted in ${days} days. You will be signed out everywhere now. ` +
    'Sign in before then to keep your account. Orders are kept without your name or contact details.',
  password: 'Current password',
  confirm: 'Close account',
  cancel: 'Cancel',
  scheduled: 'Account deletion scheduled',
  wrongPassword: 'Current password is incorrect.',
  managedElsewhere: 'Your account is managed by your identity provider: close it there.',
  alreadyScheduled: 'Your account is already scheduled for deletion.',
  pageTitle: 'Your account is scheduled for deletion',
  pageText: (day: string) =>
    `Your account and personal information will be deleted on ${day}. Keep your account to cancel the deletion.`,
  keep: 'Keep my account',
  leave: 'Continue with deletion',
  leftTitle: 'Your account will be deleted',
  leftText: (day: string) => `Your account will be deleted on ${day}. You can sign in before then to keep it.`,
  cancelled: 'Account deletion cancelled',
  mailSubject: 'Your account will be deleted',
  cancelledMailSubject: 'Your account will not be deleted',
} as const;
