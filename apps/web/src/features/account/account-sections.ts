/** The account page's in-page sections, in order (SPEC section 2, and Security after them). */
export const ACCOUNT_SECTIONS = [
  { id: 'personal-information', label: 'Personal Information' },
  { id: 'login-details', label: 'Login Details' },
  { id: 'payment-history', label: 'Payment History' },
  { id: 'subscriptions', label: 'Subscriptions' },
  { id: 'security', label: 'Security' },
] as const;
export type AccountSectionId = (typeof ACCOUNT_SECTIONS)[number]['id'];

/** Scrolls smoothly to a section, below the fixed header. */
export function scrollToSection(id: string): void {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}
