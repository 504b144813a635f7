import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createVersionCache } from './version-cache.js';

/** A pool whose version statement always answers the same version: every kept answer stays fresh. */
function poolAt(version: string) {
  const query = async () => ({ rows: [{ version }] });
  // Only `query` is used by the cache; the rest of pg.Pool is not needed here.
  return { query } as unknown as pg.Pool;
}
const noScope = () => ({ text: 'select 1' });

describe('the version cache', () => {
  it('counts the keys (which hold the caller’s search text) against its byte budget, not only the answers', async () => {
    const budget = 20_000;
    const cache = createVersionCache(poolAt('1'), noScope, { maxBytes: budget });
    const builds: string[] = [];
    for (let i = 0; i < 100; i++) {
      const key = `product?q=${String(i).padStart(3, '0')}${'x'.repeat(1000)}`;
      await cache.get(key, async () => {
        builds.push(key);
        return '{}';
      });
    }
    expect(builds).toHaveLength(100);
    expect(cache.size.bytes).toBeLessThanOrEqual(budget);
    expect(cache.size.entries).toBeLessThan(20);
  });

  it('keeps at most its number of answers however small, the most recently used', async () => {
    const cache = createVersionCache(poolAt('1'), noScope, { maxBytes: 1024 * 1024, maxEntries: 10 });
    // Sent at once: the bound holds for concurrent requests too.
    await Promise.all(Array.from({ length: 50 }, (_, i) => cache.get(`k${i}`, async () => `answer ${i}`)));
    expect(cache.size.entries).toBe(10);
    let rebuilt = 0;
    const again = async (key: string) =>
      cache.get(key, async () => {
        rebuilt++;
        return 'rebuilt';
      });
    expect(await again('k49')).toBe('answer 49');
    expect(await again('k0')).toBe('rebuilt');
    expect(rebuilt).toBe(1);
  });

  it('serves an answer larger than the whole budget without keeping it', async () => {
    const cache = createVersionCache(poolAt('1'), noScope, { maxBytes: 1000 });
    expect(await cache.get('big', async () => 'y'.repeat(5000))).toHaveLength(5000);
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });
});

describe('the version cache’s reuse', () => {
  /** A pool whose version statement answers whatever `current.version` holds when it is asked. */
  function movingPool() {
    const current = { version: '1' };
    const query = async () => ({ rows: [{ version: current.version }] });
    return { current, pool: { query } as unknown as pg.Pool };
  }

  it('reuses an answer only while its data version is unchanged', async () => {
    const { current, pool } = movingPool();
    const cache = createVersionCache(pool, noScope);
    let builds = 0;
    const build = async () => `answer ${++builds}`;
    expect(await cache.get('k', build)).toBe('answer 1');
    expect(await cache.get('k', build)).toBe('answer 1');
    current.version = '2';
    expect(await cache.get('k', build)).toBe('answer 2');
    expect(cache.size.entries).toBe(1);
  });

  it('builds once for concurrent requests under one version, and keeps no failed build', async () => {
    const { pool } = movingPool();
    const cache = createVersionCache(pool, noScope);
    let builds = 0;
    const failing = async () => {
      builds++;
      throw new Error('statement timeout');
    };
    const settled = await Promise.allSettled([cache.get('k', failing), cache.get('k', failing)]);
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(builds).toBe(1);
    expect(cache.size.entries).toBe(0);
    expect(await cache.get('k', async () => 'built again')).toBe('built again');
  });

  it("keeps a search's answer from its second ask: the first is built without reading the version, and not kept", async () => {
    let versionReads = 0;
    const pool = {
      query: async () => {
        versionReads++;
        return { rows: [{ version: '1' }] };
      },
    } as unknown as pg.Pool;
    const cache = createVersionCache(pool, noScope);
    let builds = 0;
    const search = async (key: string) =>
      cache.get(key, async () => `answer ${++builds}`, [], { keptFromSecondAsk: true });
    expect(await search('q=once')).toBe('answer 1');
    expect([versionReads, cache.size.entries]).toEqual([0, 0]);
    expect(await search('q=again')).toBe('answer 2');
    expect(await search('q=again')).toBe('answer 3');
    expect(await search('q=again')).toBe('answer 3');
    expect([versionReads, cache.size.entries]).toEqual([2, 1]);
    // A page (no search) is kept from its first ask.
    expect(await cache.get('page', async () => 'page 1')).toBe('page 1');
    expect(await cache.get('page', async () => 'page 2')).toBe('page 1');
    // Asked again at once: the asks after the first read the version and share one kept build.
    const together = await Promise.all([search('q=burst'), search('q=burst'), search('q=burst')]);
    expect(together).toEqual(['answer 4', 'answer 5', 'answer 5']);
    expect(await search('q=burst')).toBe('answer 5');
    const again = await Promise.all([search('q=again'), search('q=again'), search('q=again')]);
    expect(again).toEqual(['answer 3', 'answer 3', 'answer 3']);
  });

  it("builds a search's first ask afresh for each request, so none is served a build begun before it", async () => {
    const cache = createVersionCache(poolAt('1'), noScope);
    let builds = 0;
    const failing = async () => {
      builds++;
      throw new Error('statement timeout');
    };
    await expect(cache.get('q=new', failing, [], { keptFromSecondAsk: true })).rejects.toThrow('statement timeout');
    // The failed first ask was an ask: the next is kept.
    expect(await cache.get('q=new', async () => `built ${++builds}`, [], { keptFromSecondAsk: true })).toBe('built 2');
    expect(await cache.get('q=new', async () => 'not built', [], { keptFromSecondAsk: true })).toBe('built 2');
  });
});
