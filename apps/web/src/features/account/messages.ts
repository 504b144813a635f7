export const ACCOUNT_TITLE = 'My Account';

export const ACCOUNT_NAV_LABEL = 'Account sections';

/** Account pages that are not built yet (SPEC section 1); the other section addresses open the account page there. */
export const ACCOUNT_PLACEHOLDERS = {
  'payment-information': 'Payment Information',
} as const;
