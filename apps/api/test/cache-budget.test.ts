import { describe, expect, it } from 'vitest';
import { growData } from '../src/seed/grow-data.js';
import { ADMIN, testApp } from './helper.js';

const MB = 1024 * 1024;

/** What the metrics say each cache keeps, in bytes. */
async function cacheBytes(app: Awaited<ReturnType<typeof testApp>>['app']): Promise<Record<string, number>> {
  const text = await app.metrics.registry.metrics();
  return Object.fromEntries(
    [...text.matchAll(/^ums_cache_bytes\{cache="([^"]+)"\} (\S+)$/gm)].map(([, cache, bytes]) => [
      cache,
      Number(bytes),
    ]),
  );
}

describe('CACHE_MEMORY_MB', () => {
  it('holds the answer caches together within it: the catalog’s whole lists push out the oldest, not past 1 MB', async () => {
    const { app, pool, signedIn } = await testApp({ env: { CACHE_MEMORY_MB: '1' } });
    // 5,000 products: each whole product list is several hundred kilobytes of JSON.
    await growData(pool, {
      products: 5000,
      memberships: 0,
      promotionalPerMembership: 0,
      discountPackages: 0,
      productsPerPackage: 0,
      member: { subject: 'nobody', orders: 0, subscriptions: 0 },
    });
    const headers = await signedIn(ADMIN);
    const read: number[] = [];
    for (const sort of ['name', '-name', 'retailPrice', '-retailPrice', 'productId', '-productId']) {
      const answer = await app.inject({ method: 'GET', url: `/api/product?sort=${sort}`, headers });
      expect(answer.statusCode).toBe(200);
      read.push(answer.body.length);
    }
    // Kept alone, the catalog's own bound (64 MB) would hold all six answers.
    expect(read.reduce((sum, bytes) => sum + bytes, 0)).toBeGreaterThan(2 * MB);
    const kept = await cacheBytes(app);
    const answerCaches = ['catalog', 'audit', 'directory', 'member-lists', 'business-metrics'];
    expect(Object.keys(kept)).toEqual(expect.arrayContaining(answerCaches));
    expect(kept['catalog']).toBeGreaterThan(0);
    expect(answerCaches.reduce((sum, cache) => sum + kept[cache]!, 0)).toBeLessThanOrEqual(1 * MB);
  });
});
