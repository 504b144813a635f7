import { isOneLine, oneLineMessage, requiredTextProblem } from './one-line.js';

// The checks the API's schemas (entities.ts) make of what a form sends, as plain functions: a browser form runs the
// same rule with the same words without bundling the schema library.

export const NAME_MAX_LENGTH = 120;
export const DESCRIPTION_MAX_LENGTH = 2000;

/** What optionalText (common.ts) says about a text that may be left out, or null when it passes. */
export function optionalTextProblem(label: string, max: number, value: string, lines: 'one' | 'many' = 'one') {
  const trimmed = value.trim();
  if (trimmed.length > max) return `${label} must be at most ${max} characters`;
  return lines === 'many' || isOneLine(trimmed) ? null : oneLineMessage(label);
}

/** A membership's or a discount package's name. */
export const nameProblem = (value: string) => requiredTextProblem('Name', NAME_MAX_LENGTH, value);
/** A membership's or a discount package's description (several lines allowed). */
export const descriptionProblem = (value: string) =>
  optionalTextProblem('Description', DESCRIPTION_MAX_LENGTH, value, 'many');

export const PRODUCT_REQUIRED = 'Product is required';

export const GROUP_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/;
export const GROUPS_MAX = 20;
export const GROUP_RULES = {
  name: 'Each group is a name of letters, digits, spaces, _ . or -',
  max: `At most ${GROUPS_MAX} groups`,
  once: 'Each group at most once',
} as const;

/** A member's groups as an administrator sets them, or null when they pass. */
export function groupsProblem(groups: readonly string[]): string | null {
  if (groups.some((group) => !GROUP_NAME_PATTERN.test(group))) return GROUP_RULES.name;
  if (groups.length > GROUPS_MAX) return GROUP_RULES.max;
  return new Set(groups).size === groups.length ? null : GROUP_RULES.once;
}
