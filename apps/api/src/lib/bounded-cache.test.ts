import { describe, expect, it } from 'vitest';
import { createBoundedCache, ENTRY_OVERHEAD_BYTES } from './bounded-cache.js';

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
