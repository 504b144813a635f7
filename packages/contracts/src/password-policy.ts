/** The password rules of SPEC section 5: one implementation for the browser and the server. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export const PASSWORD_HELPER_TEXT =
  'Password must be 8-256 characters with at least one lowercase letter, uppercase letter, number, and special character.';

export const PASSWORD_MISMATCH_MESSAGE = 'New password and confirmation do not match.';

/** The special characters Cognito's default policy accepts. */
export const PASSWORD_SPECIAL_CHARACTERS = '^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+- ';

export interface PasswordRule {
  id: 'min-length' | 'max-length' | 'lowercase' | 'uppercase' | 'number' | 'special' | 'repeats';
  message: string;
  test: (password: string) => boolean;
}

const hasSpecial = (password: string) => [...password].some((ch) => PASSWORD_SPECIAL_CHARACTERS.includes(ch));

export const PASSWORD_RULES: readonly PasswordRule[] = [
  {
    id: 'min-length',
    message: 'Password must be at least 8 characters long',
    test: (p) => [...p].length >= PASSWORD_MIN_LENGTH,
  },
  {
    id: 'max-length',
    message: 'Password must be no more than 256 characters long',
    test: (p) => [...p].length <= PASSWORD_MAX_LENGTH,
  },
  {
    id: 'lowercase',
    message: 'Password must contain at least one lowercase letter (a-z)',
    test: (p) => /[a-z]/.test(p),
  },
  {
    id: 'uppercase',
    message: 'Password must contain at least one uppercase letter (A-Z)',
    test: (p) => /[A-Z]/.test(p),
  },
  {
    id: 'number',
    message: 'Password must contain at least one number (0-9)',
    test: (p) => /[0-9]/.test(p),
  },
  {
    id: 'special',
    message: `Password must contain at least one special character (${PASSWORD_SPECIAL_CHARACTERS.trim()})`,
    test: hasSpecial,
  },
  {
    id: 'repeats',
    message: 'Password cannot contain more than 2 identical characters in a row',
    test: (p) => !/(.)\1\1/su.test(p),
  },
];

/** Messages of every rule the password breaks, in the spec's order; empty when it is acceptable. */
export function passwordProblems(password: string): string[] {
  return PASSWORD_RULES.filter((rule) => !rule.test(password)).map((rule) => rule.message);
}

/** The problems joined as the browser shows them, or null when the password is acceptable. */
export function passwordProblemText(password: string): string | null {
  const problems = passwordProblems(password);
  return problems.length > 0 ? problems.join('. ') : null;
}
