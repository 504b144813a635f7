export const SETTINGS = {
  title: 'Settings',
  intro: 'How this installation is configured. Operators change these with environment variables (see the README).',
  rows: {
    issuer: 'Identity provider (issuer)',
    clientId: 'Web client id',
    adminGroup: 'Admin group',
    groupsClaim: 'Groups claim',
    roleClaim: 'Role claim',
    signedInAs: 'Signed in as',
    analytics: 'Analytics',
    companions: 'Companion apps signed out on logout',
  },
  analyticsOff: 'Off: nothing is sent',
  none: 'None',
  apiDocs: 'API documentation',
} as const;
