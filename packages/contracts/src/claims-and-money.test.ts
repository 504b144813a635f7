import { describe, expect, it } from 'vitest';
import { groupsFromClaim } from './claims.js';
import { MONEY_PATTERN } from './money.js';

describe('the groups claim', () => {
  it('reads an array of names and ignores what is not a name', () => {
    expect(groupsFromClaim(['Admin', 7, 'Staff', null])).toEqual(['Admin', 'Staff']);
  });

  it('reads one string of names separated by spaces or commas', () => {
    expect(groupsFromClaim('Admin, Staff  Billing')).toEqual(['Admin', 'Staff', 'Billing']);
  });

  it('gives no groups for a missing or malformed claim', () => {
    expect(groupsFromClaim(undefined)).toEqual([]);
    expect(groupsFromClaim({ Admin: true })).toEqual([]);
    expect(groupsFromClaim('')).toEqual([]);
  });
});

describe('the money pattern', () => {
  it('takes up to 8 digits with at most 2 decimals, nothing negative', () => {
    expect(['0', '12.5', '12.50', '99999999.99'].every((text) => MONEY_PATTERN.test(text))).toBe(true);
    expect(['-1', '12.345', '123456789', '1e3', '.5', ''].some((text) => MONEY_PATTERN.test(text))).toBe(false);
  });
});
