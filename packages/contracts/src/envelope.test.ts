import { describe, expect, it } from 'vitest';
import { envelopeFirst, envelopeList, ok } from './envelope.js';

describe('envelope helpers', () => {
  it('wraps a single object as a one-element array', () => {
    expect(ok({ a: 1 })).toEqual({ isError: false, message: '', data: [{ a: 1 }] });
  });
  it('returns the data array, or an empty list when there is none', () => {
    expect(envelopeList({ data: [1, 2] })).toEqual([1, 2]);
    expect(envelopeList({ data: 'x' })).toEqual([]);
    expect(envelopeList(null)).toEqual([]);
  });
  it('returns the first element or null', () => {
    expect(envelopeFirst({ data: [3] })).toBe(3);
    expect(envelopeFirst({ data: [] })).toBeNull();
  });
});
