export const SHELL_MESSAGES = {
  menu: 'Menu',
  toggleMenu: 'Toggle menu',
  closeMenu: 'Close menu',
  logout: 'Logout',
  signOut: 'Sign Out',
  signOutQuestion: 'Are you sure you want to sign out?',
  cancel: 'Cancel',
  terms: 'Terms and Conditions',
  privacy: 'Privacy Policy',
  copyright: (year: number, company: string) => `© ${year} ${company}. All rights reserved.`,
} as const;
