import { describe, expect, it } from 'vitest';
import { passwordProblems, passwordProblemText } from './password-policy.js';

// SPEC section 8 leaves the set open; this is Cognito's default set of special characters, written out.
const SPECIAL_RULE = 'Password must contain at least one special character (^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+-)';

describe('password policy', () => {
  it('accepts a password that follows every rule', () => {
    expect(passwordProblems('Health#2026')).toEqual([]);
    expect(passwordProblemText('Health#2026')).toBeNull();
  });

  it('names each broken rule with the exact text, joined with ". "', () => {
    expect(passwordProblemText('aaa')).toBe(
      [
        'Password must be at least 8 characters long',
        'Password must contain at least one uppercase letter (A-Z)',
        'Password must contain at least one number (0-9)',
        SPECIAL_RULE,
        'Password cannot contain more than 2 identical characters in a row',
      ].join('. '),
    );
  });

  it('holds the 8 and 256 character boundaries', () => {
    const base = 'Aa1!';
    expect(passwordProblems(`${base}xyz`)).toContain('Password must be at least 8 characters long');
    expect(passwordProblems(`${base}xyzw`)).toEqual([]);
    const long = (n: number) => base + 'xy'.repeat(Math.ceil(n / 2)).slice(0, n - base.length);
    expect(passwordProblems(long(256))).toEqual([]);
    expect(passwordProblems(long(257))).toContain('Password must be no more than 256 characters long');
  });

  it('allows two identical characters in a row, not three', () => {
    expect(passwordProblems('Aa1!bbcd')).toEqual([]);
    expect(passwordProblems('Aa1!bbbd')).toEqual(['Password cannot contain more than 2 identical characters in a row']);
  });
});
