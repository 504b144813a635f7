import { describe, expect, it } from 'vitest';
import { oneLineMessage } from './common.js';
import { discountPackageInputSchema, membershipInputSchema, userDetailsInputSchema } from './entities.js';

const issues = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('names and addresses are one line of printable characters', () => {
  it('accepts the names people have: accents, apostrophes, hyphens, other scripts', () => {
    for (const name of ["Zoë O'Brien-Núñez", '山田 太郎', 'Łukasz', 'Mary Ann', 'Nguyễn']) {
      expect(userDetailsInputSchema.safeParse({ firstName: name, lastName: name }).success, name).toBe(true);
    }
  });

  it('refuses line breaks, control characters and invisible direction or zero-width marks', () => {
    for (const name of [
      'Ann\nLee',
      'Ann\rLee',
      'Ann\tLee',
      'Ann\u0000',
      'Ann\u202ELee',
      'Ann\u200BLee',
      'Ann\u2029Lee',
    ]) {
      expect(issues(userDetailsInputSchema.safeParse({ firstName: name })), JSON.stringify(name)).toEqual([
        oneLineMessage('First name'),
      ]);
    }
    expect(issues(userDetailsInputSchema.safeParse({ city: 'Austin\nTX' }))).toEqual([oneLineMessage('City')]);
  });

  it('keeps catalog names on one line but lets a description hold several', () => {
    const membership = { name: 'Gold', productId: 1001, membershipLengthInMonths: 12 };
    expect(issues(membershipInputSchema.safeParse({ ...membership, name: 'Gold\nPlan' }))).toEqual([
      oneLineMessage('Name'),
    ]);
    expect(membershipInputSchema.safeParse({ ...membership, description: 'Line one\nLine two' }).success).toBe(true);
    expect(issues(discountPackageInputSchema.safeParse({ name: 'Savings\u0085' }))).toEqual([oneLineMessage('Name')]);
  });
});
