/**
 * What an administrator had started on a member when the API asked for a recent sign-in: the groups as typed, or
 * the confirmed end of sessions or reset of sign-in methods. After the sign-in the member's page opens it again.
 */
export type MemberActionDraft =
  { action: 'groups'; groups: string } | { action: 'end-sessions' } | { action: 'reset-sign-in-methods' };

/** The draft's name in the tab's storage: one per member, so another member's page never shows it. */
export const memberActionDraftKey = (memberId: string) => `admin.member.${memberId}`;

/** A stored value read back as a draft, or null when it is not one. */
export function readMemberActionDraft(stored: unknown): MemberActionDraft | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { action, groups } = stored as { action?: unknown; groups?: unknown };
  if (action === 'groups') return typeof groups === 'string' ? { action, groups } : null;
  if (action === 'end-sessions' || action === 'reset-sign-in-methods') return { action };
  return null;
}

/** Groups as the field shows them: one line, separated by commas. */
export const groupsText = (groups: readonly string[]) => groups.join(', ');

/**
 * The typed groups as the API takes them: split at commas, trimmed, empty and repeated entries left out. The names'
 * rules are the contract's, checked by the API (the browser bundle carries no schema library); its refusal is shown.
 */
export const parseGroupsText = (text: string): string[] => [
  ...new Set(
    text
      .split(',')
      .map((group) => group.trim())
      .filter(Boolean),
  ),
];
