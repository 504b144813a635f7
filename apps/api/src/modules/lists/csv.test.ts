import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ADMIN, MEMBER, testApp } from '../../../test/helper.js';
import { paths } from '../../runtime.js';
import { seedDemoData } from '../../seed/demo-data.js';
import { csvCell, csvLine } from './csv.js';

const ctx = await testApp();
await seedDemoData(ctx.db, paths.catalogFile);
const today = new Date().toISOString().slice(0, 10);

const exportOf = async (url: string, who = ADMIN) => {
  const response = await ctx.app.inject({ url, headers: await ctx.signedIn(who) });
  return { status: response.statusCode, headers: response.headers, body: response.body };
};

describe('CSV cells (RFC 4180, safe in a spreadsheet)', () => {
  it('quote a comma, a quote or a line break, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Iron, Ferritin')).toBe('"Iron, Ferritin"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(49.5)).toBe('49.5');
    expect(csvLine(['a', 'b,c', 3])).toBe('a,"b,c",3\r\n');
  });

  it('begin with an apostrophe when a spreadsheet would run them: =, +, -, @, tab, carriage return', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","Click")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""Click"")"`,
    );
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('name list items: products by name (with their package price), other lists joined by "; "', () => {
    expect(csvCell(['Admin', 'Support'])).toBe('Admin; Support');
    expect(
      csvCell([
        { productId: 1, productName: 'Lipid Panel', retailPrice: 59, price: 49 },
        { productId: 2, productName: 'A1c', retailPrice: 35, price: null },
      ]),
    ).toBe('Lipid Panel (49.00); A1c');
  });
});

describe('?format=csv on the admin lists', () => {
  it('streams the whole filtered, sorted product list with a header row, as an attachment', async () => {
    await ctx.pool.query(
      `insert into products (product_id, name, retail_price) values
         (990001, '=HYPERLINK("http://evil.example")', 1.5), (990002, 'Zinc, Copper Panel', 2.25)`,
    );
    const csv = await exportOf('/api/product?format=csv&sort=-retailPrice&q=e&limit=1');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="products-${today}.csv"`);
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('productId,name,retailPrice,imageUrl');
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(1, -1);
    // limit and cursor do not apply to an export: every matching row, in the asked order.
    const { rows: expected } = await ctx.pool.query<{ n: string }>(
      `select count(*) as n from products where name ilike '%e%'`,
    );
    expect(rows).toHaveLength(Number(expected[0]!.n));
    const prices = rows.map((row) => Number(/,(\d+(?:\.\d+)?),[^,]*$/.exec(row)?.[1]));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(rows).toContain(`990001,"'=HYPERLINK(""http://evil.example"")",1.5,`);
    expect(rows).toContain('990002,"Zinc, Copper Panel",2.25,');
  });

  it('exports memberships, discount packages, promotional products and members with their own columns', async () => {
    const memberships = await exportOf('/api/membership?format=csv');
    expect(memberships.body.split('\r\n')[0]).toBe(
      'membershipId,name,description,productId,productName,productRetailPrice,discountPackageId,discountPackageName,numberOfFreeEligibleItems,membershipLengthInMonths,promotionalProducts',
    );
    expect(memberships.body).toMatch(/\r\n\d+,Premium Longevity,.*,[^,\r\n]+; [^,\r\n]+/);
    expect(memberships.headers['content-disposition']).toBe(`attachment; filename="memberships-${today}.csv"`);

    const packages = await exportOf('/api/discountPackage?format=csv');
    expect(packages.body.split('\r\n')[0]).toBe('discountPackageId,name,description,products');

    const links = await exportOf('/api/promotionalProduct?format=csv&q=premium');
    expect(links.body.split('\r\n')[0]).toBe('productId,membershipId,productName,membershipName');
    expect(
      links.body
        .split('\r\n')
        .slice(1, -1)
        .every((row) => row.endsWith(',Premium Longevity')),
    ).toBe(true);

    const one = await exportOf('/api/promotionalProduct/999999?format=csv');
    expect(one.status).toBe(404);
  });

  it('is refused to members and answers 400 for any other format', async () => {
    expect((await exportOf('/api/product?format=csv', MEMBER)).status).toBe(403);
    const bad = await exportOf('/api/product?format=xlsx');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ isError: true, errors: { format: ['Must be csv'] } });
  });
});

// The collector, reachable from a test without starting the worker with --expose-gc.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

describe('a CSV export of 100,000 rows', () => {
  it('streams all 100,000 lines with the live heap growing less than 8 MB (the whole list held takes over 20)', async () => {
    await ctx.pool.query(
      `insert into products (product_id, name, retail_price)
       select 2000000 + n, 'Bulk Panel ' || n || ', lot ' || (n % 97), (n % 500) + 0.99 from generate_series(1, 100000) n`,
    );
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const headers = await ctx.signedInOverNetwork(ADMIN, 'GET', '/api/product');
    // What the heap holds, not what it has yet to collect: each reading sweeps first, so the figure does not depend
    // on when the collector happens to run on a busy machine. Readings are taken all through the request (the server
    // reading rows from PostgreSQL and writing them share this process with the client), not only between chunks.
    // Four a second: a sweep of a worker's heap after other files have run takes tens of milliseconds, and the list
    // held whole stays held for the seconds the request takes.
    const live = () => {
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    const start = live();
    let peak = 0;
    let readings = 0;
    const reading = setInterval(() => {
      peak = Math.max(peak, live() - start);
      readings++;
    }, 250);
    const response = await fetch(`${address}/api/product?format=csv&q=bulk`, { headers });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let bytes = 0;
    let lines = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        // Every line ends in CRLF and no bulk name holds a line break: count the LFs (a CRLF may span two chunks).
        lines += decoder.decode(value, { stream: true }).split('\n').length - 1;
      }
    } finally {
      clearInterval(reading);
    }
    expect(lines).toBe(100_001);
    expect(bytes).toBeGreaterThan(4_000_000);
    // A list held whole (its rows and their objects) takes over 20 MB; batches of 500 rows stay under 1 MB.
    expect(peak).toBeLessThan(8 * 1024 * 1024);
    // Read while the request ran, not only once it was over.
    expect(readings).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
