// Free of any schema library, so the browser bundle stays small (the admin console's price fields use it).

/** An amount a numeric(10,2) column holds, as typed: up to 8 digits, at most 2 decimals, never negative. */
export const MONEY_PATTERN = /^\d{1,8}(\.\d{1,2})?$/;
