/** The app's addresses in one place, so links and routes cannot drift apart (the admin console's: `adminPaths`). */
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
} as const;
