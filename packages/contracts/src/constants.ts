/** Business constants of SPEC section 9, free of any schema library so the browser bundle stays small. */
export const MEMBERSHIP_LENGTH_MIN = 1;
export const MEMBERSHIP_LENGTH_MAX = 120;
export const MEMBERSHIP_LENGTH_DEFAULT = 12;
export const FREE_ITEMS_DEFAULT = 0;
export const BIOLOGICAL_SEXES = ['Male', 'Female'] as const;

/** An amount a numeric(10,2) column holds, as typed: up to 8 digits, at most 2 decimals, never negative. */
export const MONEY_PATTERN = /^\d{1,8}(\.\d{1,2})?$/;

/**
 * The groups a token's groups claim names: a JSON array of strings (the embedded provider, Cognito's
 * `cognito:groups`) or one string of names separated by spaces or commas (some providers).
 */
export function groupsFromClaim(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((group): group is string => typeof group === 'string');
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return [];
}
