/** Business constants of SPEC section 9, free of any schema library so the browser bundle stays small. */
export const MEMBERSHIP_LENGTH_MIN = 1;
export const MEMBERSHIP_LENGTH_MAX = 120;
export const MEMBERSHIP_LENGTH_DEFAULT = 12;
export const FREE_ITEMS_DEFAULT = 0;
export const BIOLOGICAL_SEXES = ['Male', 'Female'] as const;
