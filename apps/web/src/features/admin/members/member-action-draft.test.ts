import { describe, expect, it } from 'vitest';
import { groupsText, parseGroupsText, readMemberActionDraft } from './member-action-draft.js';

describe("a member's groups as typed", () => {
  it('are split at commas, trimmed, and empty or repeated entries left out', () => {
    expect(parseGroupsText(' Admin ,Support,, Admin')).toEqual(['Admin', 'Support']);
    expect(parseGroupsText(' ')).toEqual([]);
    expect(groupsText(['Admin', 'Support'])).toBe('Admin, Support');
  });
});

describe('a stored member action draft', () => {
  it('is read back only in a shape the page knows', () => {
    expect(readMemberActionDraft({ action: 'groups', groups: 'Admin' })).toEqual({ action: 'groups', groups: 'Admin' });
    expect(readMemberActionDraft({ action: 'end-sessions' })).toEqual({ action: 'end-sessions' });
    expect(readMemberActionDraft({ action: 'reset-sign-in-methods', extra: 1 })).toEqual({
      action: 'reset-sign-in-methods',
    });
    expect(readMemberActionDraft({ action: 'groups', groups: ['Admin'] })).toBeNull();
    expect(readMemberActionDraft({ action: 'delete-everything' })).toBeNull();
    expect(readMemberActionDraft('groups')).toBeNull();
    expect(readMemberActionDraft(null)).toBeNull();
  });
});
