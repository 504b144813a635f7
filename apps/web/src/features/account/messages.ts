export const ACCOUNT_TITLE = 'My Account';

export const ACCOUNT_NAV_LABEL = 'Account sections';

export const ACCOUNT_PLACEHOLDERS = {
  'login-details': 'Login Details',
  'payment-information': 'Payment Information',
  'payment-history': 'Payment History',
  subscriptions: 'Subscriptions',
} as const;
