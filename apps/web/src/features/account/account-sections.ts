/** The account page's in-page sections, in order (SPEC section 2, and Security after them). */
export const ACCOUNT_SECTIONS = [
  { id: 'personal-information', label: 'Personal Information' },
  { id: 'login-details', label: 'Login Details' },
  { id: 'payment-history', label: 'Payment History' },
  { id: 'subscriptions', label: 'Subscriptions' },
  { id: 'security', label: 'Security' },
] as const;
export type AccountSectionId = (typeof ACCOUNT_SECTIONS)[number]['id'];

const askedFor = new Set<(id: string) => void>();

/** Calls `listener` with the id of each section the member asks for (the drawer, an address with its hash). */
export function onSectionAsked(listener: (id: string) => void): () => void {
  askedFor.add(listener);
  return () => void askedFor.delete(listener);
}

/**
 * Scrolls smoothly to a section, below the fixed header. A section that loads when it comes into view is told first:
 * the page above may still grow while the scroll runs and stop it short of the section.
 */
export function scrollToSection(id: string): void {
  for (const listener of askedFor) listener(id);
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}
