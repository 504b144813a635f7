/** SPEC section 9: layout constants. */
export const HEADER_HEIGHT = 64;
export const DRAWER_WIDTH = 240;
export const MOBILE_DRAWER_WIDTH = 320;
export const MOBILE_BREAKPOINT = 768;
export const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT}px)`;

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
