import { describe, expect, it } from 'vitest';
import { activeSection, SCROLL_SPY_OFFSET } from './use-scroll-spy.js';

const ids = ['personal-information', 'login-details', 'payment-history', 'subscriptions'];
const tops = (values: number[]) => (id: string) => values[ids.indexOf(id)] ?? null;

describe('scroll spy', () => {
  it('marks the first section at the top of the page', () => {
    expect(activeSection(ids, tops([120, 500, 900, 1400]))).toBe('personal-information');
  });

  it('marks the last section whose top has passed the 100px offset', () => {
    expect(SCROLL_SPY_OFFSET).toBe(100);
    expect(activeSection(ids, tops([-400, 100, 500, 900]))).toBe('login-details');
    expect(activeSection(ids, tops([-400, 101, 500, 900]))).toBe('personal-information');
    expect(activeSection(ids, tops([-1400, -900, -300, 40]))).toBe('subscriptions');
  });

  it('ignores sections that are not on the page', () => {
    expect(activeSection(ids, () => null)).toBe('personal-information');
  });
});
