import { describe, expect, it } from 'vitest';
import { createBoundedCache, createMemoryBudget, ENTRY_OVERHEAD_BYTES } from './bounded-cache.js';

const texts = (maxBytes: number, maxEntries: number) =>
  createBoundedCache<string>({ maxBytes, maxEntries, bytesOf: (value) => value.length });

/** A promise settled from outside, so that a build stays on its way while other calls arrive. */
function deferred<Value>() {
  let resolve!: (value: Value) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<Value>((settle, fail) => {
    resolve = settle;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('the bounded cache', () => {
  it('evicts the least recently read entry first, not the least recently written', () => {
    const cache = texts(1024 * 1024, 3);
    cache.set('a', '1');
    cache.set('b', '2');
    cache.set('c', '3');
    expect(cache.get('a')).toBe('1');
    cache.set('d', '4');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.keys()).toEqual(['c', 'a', 'd']);
  });

  it('counts each key’s bytes and the entry’s overhead against its byte bound: one long key evicts the others', () => {
    const cache = texts(4 * (ENTRY_OVERHEAD_BYTES + 10), 1000);
    for (const key of ['k1', 'k2', 'k3']) cache.set(key, 'v');
    expect(cache.size).toEqual({ entries: 3, bytes: 3 * (2 + 1 + ENTRY_OVERHEAD_BYTES) });
    // A one-character value under a key of twice the overhead: only its key makes it too big to keep the others.
    const longKey = `product?q=${'x'.repeat(2 * ENTRY_OVERHEAD_BYTES)}`;
    cache.set(longKey, 'v');
    expect(cache.keys()).toEqual(['k3', longKey]);
    expect(cache.size.bytes).toBeLessThanOrEqual(4 * (ENTRY_OVERHEAD_BYTES + 10));
  });

  it('keeps at most its number of entries however small, the most recently used', () => {
    const cache = texts(1024 * 1024, 10);
    for (let i = 0; i < 50; i++) cache.set(`k${i}`, `${i}`);
    expect(cache.size.entries).toBe(10);
    expect(cache.keys()).toEqual(Array.from({ length: 10 }, (_, i) => `k${40 + i}`));
  });

  it('serves a value larger than the whole budget without keeping it, nor dropping what it keeps', () => {
    const cache = texts(1000, 10);
    cache.set('small', 'x');
    expect(cache.set('big', 'y'.repeat(5000))).toHaveLength(5000);
    expect(cache.keys()).toEqual(['small']);
  });

  it('forgets a deleted entry and its bytes', () => {
    const cache = texts(1024, 10);
    cache.set('a', 'xyz');
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('does not keep a build that failed: the next caller builds again', async () => {
    const cache = texts(1024, 10);
    await expect(cache.build('k', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(cache.size.entries).toBe(0);
    expect(await cache.build('k', async () => 'built again')).toBe('built again');
  });

  it('gives concurrent callers of one key one build and its answer', async () => {
    const cache = texts(1024, 10);
    const answer = deferred<string>();
    let builds = 0;
    const build = () => {
      builds++;
      return answer.promise;
    };
    const calls = [cache.build('k', build), cache.build('k', build), cache.build('k', build)];
    answer.resolve('once');
    expect(await Promise.all(calls)).toEqual(['once', 'once', 'once']);
    expect(builds).toBe(1);
    expect(await cache.build('k', build)).toBe('once');
    expect(builds).toBe(1);
  });

  it('gives concurrent callers one failure when their shared build fails, and keeps nothing', async () => {
    const cache = texts(1024, 10);
    const answer = deferred<string>();
    const calls = [cache.build('k', () => answer.promise), cache.build('k', () => answer.promise)];
    answer.reject(new Error('timeout'));
    const settled = await Promise.allSettled(calls);
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(cache.size.entries).toBe(0);
  });

  it('builds again when the kept value is no longer current, and never joins a build of another round', async () => {
    const cache = createBoundedCache<{ version: string; body: string }>({
      maxBytes: 1024,
      maxEntries: 10,
      bytesOf: (value) => value.version.length + value.body.length,
    });
    const at = (version: string) => ({
      current: (value: { version: string }) => value.version === version,
      round: version,
    });
    const older = deferred<{ version: string; body: string }>();
    const first = cache.build('k', () => older.promise, at('1'));
    // Read after a write moved the version: it must not be served what the build under version 1 reads.
    const second = cache.build('k', async () => ({ version: '2', body: 'new' }), at('2'));
    older.resolve({ version: '1', body: 'old' });
    expect((await first).body).toBe('old');
    expect((await second).body).toBe('new');
    expect((await cache.build('k', async () => ({ version: '3', body: 'newer' }), at('3'))).body).toBe('newer');
  });
});

describe('a memory budget shared by caches', () => {
  /** An entry of this cost in all: a one-character key, a value of the rest, the entry's overhead. */
  const ENTRY = 1000;
  const value = 'v'.repeat(ENTRY - 1 - ENTRY_OVERHEAD_BYTES);
  const member = (budget: ReturnType<typeof createMemoryBudget>, name: string) =>
    createBoundedCache<string>({ name, budget, maxBytes: 100 * ENTRY, maxEntries: 1000, bytesOf: (v) => v.length });

  it('holds the caches together within it, each under its own bound too', () => {
    const budget = createMemoryBudget(10 * ENTRY);
    const catalog = member(budget, 'catalog');
    const audit = member(budget, 'audit');
    for (let i = 0; i < 8; i++) catalog.set(String(i), value);
    for (let i = 0; i < 8; i++) audit.set(String(i), value);
    const usage = budget.usage();
    expect(usage.map(({ name }) => name)).toEqual(['catalog', 'audit']);
    expect(usage.reduce((sum, { bytes }) => sum + bytes, 0)).toBeLessThanOrEqual(10 * ENTRY);
    // Alone, each cache's own bound (100 entries' worth) would have kept all 16.
    expect(catalog.size.entries + audit.size.entries).toBe(10);
  });

  it('takes from the cache that holds the most, its least recently used entry first', () => {
    const budget = createMemoryBudget(10 * ENTRY);
    // The audit trail's cache joins first: the one that gives up an entry is the fuller, not the first.
    const audit = member(budget, 'audit');
    const catalog = member(budget, 'catalog');
    for (let i = 0; i < 8; i++) catalog.set(String(i), value);
    catalog.get('0');
    audit.set('a', value);
    audit.set('b', value);
    // The budget is full: the next audit answer pushes out the catalog's least recently read, which is 1 (0 was read).
    audit.set('c', value);
    expect(catalog.keys()).toEqual(['2', '3', '4', '5', '6', '7', '0']);
    expect(audit.keys()).toEqual(['a', 'b', 'c']);
  });

  it('keeps an answer larger than every other cache holds, giving up theirs for it', () => {
    const budget = createMemoryBudget(10 * ENTRY);
    const catalog = member(budget, 'catalog');
    const audit = member(budget, 'audit');
    for (const key of 'abc') catalog.set(key, value);
    const large = 'v'.repeat(8 * ENTRY - 1 - ENTRY_OVERHEAD_BYTES);
    audit.set('x', large);
    expect(audit.keys()).toEqual(['x']);
    expect(catalog.keys()).toEqual(['b', 'c']);
  });

  it('lets one cache use what the others leave', () => {
    const budget = createMemoryBudget(10 * ENTRY);
    member(budget, 'catalog');
    const audit = member(budget, 'audit');
    for (const key of 'abcdefghijkl') audit.set(key, value);
    expect(audit.size).toEqual({ entries: 10, bytes: 10 * ENTRY });
  });

  it('serves, without keeping, a value larger than the whole budget', () => {
    const budget = createMemoryBudget(2 * ENTRY);
    const catalog = member(budget, 'catalog');
    catalog.set('small', value);
    expect(catalog.set('large', 'v'.repeat(3 * ENTRY))).toHaveLength(3 * ENTRY);
    expect(catalog.keys()).toEqual(['small']);
  });
});
