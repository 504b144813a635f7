import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN, testApp } from '../../../test/helper.js';
import { whenDone } from '../../../test/when-done.js';
import { paths } from '../../runtime.js';
import { seedDemoData } from '../../seed/demo-data.js';

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-catalog-'));
whenDone(() => fs.rm(dir, { recursive: true, force: true }));
const catalogFile = path.join(dir, 'catalog.json');
const ctx = await testApp({ env: { CATALOG_FILE: catalogFile } });
await seedDemoData(ctx.db, paths.catalogFile);

const refresh = async () => {
  const response = await ctx.app.inject({ url: '/api/product/refresh', headers: await ctx.signedIn(ADMIN) });
  return { status: response.statusCode, body: response.json() };
};

describe('catalog refresh', () => {
  it('upserts by id and removes only products nothing refers to', async () => {
    await fs.writeFile(catalogFile, JSON.stringify([{ productId: 2002, name: 'Short-lived Panel', retailPrice: 10 }]));
    expect((await refresh()).body.data[0]).toMatchObject({ added: 1, removed: 0 });
    // 1001 is a membership's product (kept although gone from the catalog); 2002 is unreferenced.
    await fs.writeFile(
      catalogFile,
      JSON.stringify([
        { productId: 1002, name: 'Metabolic Panel, Renamed', retailPrice: '61.50', imageUrl: null },
        { productId: 2001, name: 'New Allergy Panel', retailPrice: 120 },
      ]),
    );
    const { status, body } = await refresh();
    expect(status).toBe(200);
    expect(body.data[0]).toMatchObject({ added: 1, updated: 1, removed: 1 });
    const list = await ctx.app.inject({ url: '/api/product', headers: await ctx.signedIn(ADMIN) });
    const products = list.json().data as { productId: number; name: string; retailPrice: number }[];
    const ids = products.map((p) => p.productId);
    expect(ids).toContain(1001);
    expect(ids).toContain(2001);
    expect(ids).not.toContain(2002);
    expect(products.find((p) => p.productId === 1002)).toMatchObject({
      name: 'Metabolic Panel, Renamed',
      retailPrice: 61.5,
    });
  });

  it('answers POST as it answers GET (the specification names GET for a change of state)', async () => {
    await fs.writeFile(catalogFile, JSON.stringify([{ productId: 2003, name: 'Posted Panel', retailPrice: 12 }]));
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/product/refresh',
      headers: await ctx.signedIn(ADMIN),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      isError: false,
      message: expect.stringMatching(/^Catalog refreshed: 1 added, \d+ updated, \d+ removed$/),
      data: [{ added: 1 }],
    });
  });

  it('answers a clear error and changes nothing when the catalog is broken', async () => {
    const before = await ctx.app.inject({ url: '/api/product', headers: await ctx.signedIn(ADMIN) });
    await fs.writeFile(catalogFile, JSON.stringify([{ productId: 3001, name: '', retailPrice: 'ten' }]));
    const { status, body } = await refresh();
    expect(status).toBe(502);
    expect(body.message).toContain('The product catalog');
    await fs.writeFile(catalogFile, '{not json');
    expect((await refresh()).body.message).toContain('is not valid JSON');
    const after = await ctx.app.inject({ url: '/api/product', headers: await ctx.signedIn(ADMIN) });
    expect(after.json()).toEqual(before.json());
  });
});
