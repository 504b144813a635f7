/** Every address of the app in one place, so links and routes cannot drift apart. */
export const paths = {
  home: '/',
  callback: '/auth/callback',
  silentRenew: '/auth/silent-renew',
  logoutComplete: '/logout-complete',
  logoutFromApp: '/logout-complete?source=ums-client',
  account: {
    personalInformation: '/personal-information',
    loginDetails: '/login-details',
    paymentInformation: '/payment-information',
    paymentHistory: '/payment-history',
    subscriptions: '/subscriptions',
  },
  admin: {
    dashboard: '/admin',
    memberships: '/admin/memberships',
    discountPackages: '/admin/discount-packages',
    products: '/admin/products',
    promotionalProducts: '/admin/promotional-products',
    members: '/admin/members',
    activity: '/admin/activity',
    settings: '/admin/settings',
  },
} as const;
