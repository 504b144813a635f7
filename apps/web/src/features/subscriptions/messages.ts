import type { Subscription } from '@ums/contracts';
import { formatUsd } from '../../lib/format.js';

export const SUBSCRIPTIONS = {
  title: 'Subscriptions',
  subtitle: 'Recurring payments',
  loading: 'Loading subscriptions...',
  empty: 'No subscriptions found.',
  unknownProduct: 'Unknown Product',
  loadFailed: 'Failed to load subscriptions',
  deleteFailed: 'Failed to delete subscription',
  deleteTitle: 'Delete subscription?',
  deleteBody: "You'll need to buy it again if you change your mind.",
  cancel: 'Cancel',
  delete: 'Delete',
  deleteLabel: (name: string) => `Delete subscription ${name}`,
  noImage: 'No product image',
} as const;

/** "Lipid Panel, Thyroid Panel" or "Unknown Product". */
export const subscriptionName = (subscription: Subscription) =>
  subscription.products.map((p) => p.productName).join(', ') || SUBSCRIPTIONS.unknownProduct;

/** "$35.00 / month", or "$89.00 / 3 months" when the interval is not 1. */
export function priceLine(subscription: Subscription): string {
  const price = formatUsd(subscription.pricePerInterval);
  const unit = subscription.billingPeriod;
  return subscription.billingInterval === 1
    ? `${price} / ${unit}`
    : `${price} / ${subscription.billingInterval} ${unit.endsWith('s') ? unit : `${unit}s`}`;
}
