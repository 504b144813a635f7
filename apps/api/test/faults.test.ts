import http from 'node:http';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { runningEmbeddedUrl, runningPostmaster } from '../src/db/embedded.js';
import { accessToken, dpopHeaders, signIn } from '@ums/testkit/oidc-browser';
import { DATABASE_RETRY_AFTER_SECONDS } from '../src/plugins/errors.js';
import { DATABASE_UNAVAILABLE } from '../src/plugins/http-errors.js';
import { exited } from '@ums/testkit/server-process';
import { serverProcess } from './server-process.js';
import { waitFor } from './wait-for.js';

const ADMIN_PASSWORD = 'Fault-Admin-2026!';
const MEMBER_PASSWORD = 'Fault-Member-2026!';
const server = await serverProcess({ DEMO_ADMIN_PASSWORD: ADMIN_PASSWORD, DEMO_MEMBER_PASSWORD: MEMBER_PASSWORD });
const KILLS = 20;
/** What the server prints when SIGTERM starts its orderly stop. */
const STOPPING = 'SIGTERM: finishing requests in flight, then stopping';
type Json = { data: unknown[] } | null;

async function createPackage(token: string, name: string) {
  const response = await fetch(`${server.base}/api/discountPackage`, {
    method: 'POST',
    headers: {
      ...dpopHeaders(token, 'POST', `${server.base}/api/discountPackage`),
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name, description: 'written during the fault test' }),
  });
  return response.status;
}

async function packageNames(token: string): Promise<Set<string>> {
  const response = await fetch(`${server.base}/api/discountPackage`, {
    headers: dpopHeaders(token, 'GET', `${server.base}/api/discountPackage`),
  });
  const body = (await response.json()) as { data: { name: string }[] };
  return new Set(body.data.map((p) => p.name));
}

describe('faults', () => {
  it(
    `loses no acknowledged single-row insert when the Node process is killed with SIGKILL ${KILLS} times`,
    { timeout: 300_000 },
    async () => {
      let running = server.start();
      await server.waitReady();
      const token = await accessToken(server.base, 'admin@example.com', ADMIN_PASSWORD);
      const acknowledged: string[] = [];
      for (let round = 0; round < KILLS; round++) {
        let writing = true;
        const before = acknowledged.length;
        const writer = async (lane: number) => {
          for (let i = 0; writing; i++) {
            const name = `fault-${round}-${lane}-${i}`;
            const status = await createPackage(token, name).catch(() => 0);
            if (status >= 200 && status < 300) acknowledged.push(name);
          }
        };
        const writers = [0, 1, 2].map(writer);
        // The kill lands at a different point of the writing each round: after 3 to 12 acknowledged inserts.
        const underWay = 3 + Math.floor(Math.random() * 10);
        await waitFor(
          () => acknowledged.length - before,
          (count) => count >= underWay,
          30_000,
        );
        running.child.kill('SIGKILL');
        await exited(running.child);
        writing = false;
        await Promise.all(writers);
        running = server.start();
        await server.waitReady();
      }
      const present = await packageNames(token);
      const lost = acknowledged.filter((name) => !present.has(name));
      expect(acknowledged.length).toBeGreaterThan(KILLS);
      expect(lost).toEqual([]);
      // A clean stop closes the connection pool, which waits for every client: none was lost to the crashes.
      running.child.kill('SIGTERM');
      expect(await exited(running.child)).toBe(0);
    },
  );

  it(
    'keeps every multi-row transaction whole when PostgreSQL itself is killed (SIGKILL to the postmaster) mid-write',
    { timeout: 240_000 },
    async () => {
      const running = server.start();
      await server.waitReady();
      const token = await accessToken(server.base, 'admin@example.com', ADMIN_PASSWORD);
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${server.base}/api${path}`, {
          method,
          headers: { ...dpopHeaders(token, method, `${server.base}/api${path}`), 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then(
          async (response) => ({ status: response.status, body: (await response.json().catch(() => null)) as Json }),
          () => ({ status: 0, body: null as Json }),
        );
      const products = ((await call('GET', '/product')).body!.data as { productId: number }[]).map((p) => p.productId);
      const LINKS = 10;
      const PACKAGE_PRODUCTS = 4;
      expect(products.length).toBeGreaterThanOrEqual(LINKS);

      // Packages to delete while PostgreSQL dies: each one row with 4 product rows, removed in one statement.
      const packages: number[] = [];
      for (let i = 0; i < 40; i++) {
        const created = await call('POST', '/discountPackage', { name: `kill-package-${i}` });
        const id = (created.body!.data as { discountPackageId: number }[])[0]!.discountPackageId;
        for (const productId of products.slice(0, PACKAGE_PRODUCTS)) {
          expect((await call('POST', '/discountPackageProduct', { discountPackageId: id, productId })).status).toBe(
            201,
          );
        }
        packages.push(id);
      }

      const batches = { acknowledged: new Set<number>(), sent: new Set<number>() };
      /** Writes answered with neither success nor a client error: the database was gone under them. */
      let refused = 0;
      const deletions = { acknowledged: new Set<number>(), sent: new Set<number>() };
      for (let round = 0; round < 6; round++) {
        let writing = true;
        const memberships = async (lane: number) => {
          for (let i = 0; writing; i++) {
            const created = await call('POST', '/membership', {
              name: `kill-${round}-${lane}-${i}`,
              productId: products[0],
            });
            if (created.status !== 201) {
              refused++;
              continue;
            }
            const id = (created.body!.data as { membershipId: number }[])[0]!.membershipId;
            batches.sent.add(id);
            const links = products.slice(0, LINKS).map((productId) => ({ productId, membershipId: id }));
            const batch = await call('POST', '/promotionalProduct/batch', links);
            if (batch.status === 201) batches.acknowledged.add(id);
            else refused++;
          }
        };
        const packageDeletes = async () => {
          while (writing && packages.length > 0) {
            const id = packages.shift()!;
            deletions.sent.add(id);
            const deleted = await call('DELETE', `/discountPackage/${id}`);
            if (deleted.status === 200) deletions.acknowledged.add(id);
            else refused++;
          }
        };
        const batchesBefore = batches.acknowledged.size;
        const writers = [memberships(0), memberships(1), packageDeletes()];
        // PostgreSQL dies at a different point of the writing each round: after 1 to 4 acknowledged batches.
        const underWay = 1 + Math.floor(Math.random() * 4);
        await waitFor(
          () => batches.acknowledged.size - batchesBefore,
          (count) => count >= underWay,
          30_000,
        );
        const postmaster = await livePostmaster(server.pgData);
        process.kill(postmaster!.pid, 'SIGKILL');
        // The writers go on until the kill is felt: a write refused, in the middle of their transactions.
        const refusedBefore = refused;
        expect(
          await waitFor(
            () => refused - refusedBefore,
            (count) => count > 0,
            30_000,
          ),
          `round ${round}: a write was refused after the kill`,
        ).toBeGreaterThan(0);
        writing = false;
        await Promise.all(writers);
        await server.waitReady(60_000);
      }

      const client = new pg.Client({ connectionString: (await runningEmbeddedUrl(server.dataDir))! });
      await client.connect();
      /** id -> count, from a query answering (id, n). */
      const counts = async (query: string) =>
        new Map((await client.query<{ id: number; n: number }>(query)).rows.map((r) => [r.id, r.n]));
      const linkCounts = await counts(
        `select m.membership_id as id, count(p.product_id)::int as n
         from memberships m left join promotional_products p on p.membership_id = m.membership_id
         where m.name like 'kill-%' group by m.membership_id`,
      );
      const packageRows = await counts(
        `select d.discount_package_id as id, count(p.product_id)::int as n
         from discount_packages d left join discount_package_products p on p.discount_package_id = d.discount_package_id
         where d.name like 'kill-package-%' group by d.discount_package_id`,
      );
      await client.end();

      // Enough happened around the kills for the checks to mean something.
      expect(batches.acknowledged.size).toBeGreaterThan(6);
      expect(deletions.acknowledged.size).toBeGreaterThan(3);
      expect(batches.sent.size).toBeGreaterThan(batches.acknowledged.size);
      // An acknowledged batch is all there; any other is all there or not at all, never half.
      for (const id of batches.acknowledged) expect(linkCounts.get(id), `membership ${id}`).toBe(LINKS);
      for (const id of batches.sent) expect([0, LINKS], `membership ${id}`).toContain(linkCounts.get(id));
      // An acknowledged delete took the package and its products; any other left both or neither.
      for (const id of deletions.acknowledged) expect(packageRows.has(id), `package ${id}`).toBe(false);
      for (const id of deletions.sent) expect([undefined, PACKAGE_PRODUCTS]).toContain(packageRows.get(id));
      expect(running.output()).toContain('The embedded PostgreSQL stopped unexpectedly; starting it again');
      // A clean stop closes the connection pool, which waits for every client: none was lost to the crashes.
      running.child.kill('SIGTERM');
      expect(await exited(running.child)).toBe(0);
    },
  );

  it(
    'answers every read while PostgreSQL is killed under it with its data or the 503 envelope, for members and administrators alike',
    { timeout: 120_000 },
    async () => {
      const running = server.start();
      await server.waitReady();
      const admin = await accessToken(server.base, 'admin@example.com', ADMIN_PASSWORD);
      const member = await signIn(server.base, 'member@example.com', MEMBER_PASSWORD);
      const answers: {
        read: string;
        status: number;
        body: string;
        requestId: string | null;
        retryAfter: string | null;
      }[] = [];
      const read = async (path: string, who: 'member' | 'admin') => {
        const url = `${server.base}/api${path}`;
        const headers = dpopHeaders(who === 'member' ? member.access_token : admin, 'GET', url);
        const response = await fetch(url, { headers }).catch(() => null);
        if (!response) return;
        answers.push({
          read: `${who} GET ${path}`,
          status: response.status,
          body: await response.text(),
          requestId: response.headers.get('x-request-id'),
          retryAfter: response.headers.get('retry-after'),
        });
      };
      for (let round = 0; round < 3; round++) {
        let reading = true;
        const reader = async (path: string, who: 'member' | 'admin') => {
          while (reading) await read(path, who);
        };
        const readers = [
          reader('/userdetails/', 'member'),
          reader('/UserSubscriptions', 'member'),
          reader('/membership', 'admin'),
          reader('/discountPackage?limit=5', 'admin'),
        ];
        // Every reader is under way before PostgreSQL dies.
        const start = answers.length;
        await waitFor(
          () => answers.length - start,
          (count) => count >= 20,
          15_000,
        );
        const postmaster = await livePostmaster(server.pgData);
        process.kill(postmaster!.pid, 'SIGKILL');
        const killedAt = answers.length;
        // Until the kill has been felt (a read refused) and PostgreSQL is back (both kinds of read answered again).
        const feltAndBack = await waitFor(
          () => {
            const after = answers.slice(killedAt);
            const felt = after.findIndex((answer) => answer.status !== 200);
            const again = felt < 0 ? [] : after.slice(felt + 1).filter((answer) => answer.status === 200);
            return ['member', 'admin'].every((who) => again.some((answer) => answer.read.startsWith(who)));
          },
          (done) => done,
          60_000,
        );
        reading = false;
        await Promise.all(readers);
        expect(feltAndBack, `round ${round}: a read was refused, then both readers were answered again`).toBe(true);
      }
      const failed = answers.filter((answer) => answer.status !== 200);
      // The kills were felt, and every one of those answers is the envelope, never a 500.
      expect(failed.length).toBeGreaterThan(0);
      for (const answer of failed) {
        expect(answer.status, answer.read).toBe(503);
        expect(JSON.parse(answer.body), answer.read).toEqual({
          isError: true,
          message: DATABASE_UNAVAILABLE,
          data: [],
          requestId: answer.requestId,
        });
        expect(answer.retryAfter, answer.read).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      }
      running.child.kill('SIGTERM');
      expect(await exited(running.child)).toBe(0);
    },
  );

  it('answers 503 while its PostgreSQL is down and recovers by itself', { timeout: 60_000 }, async () => {
    const running = server.start();
    await server.waitReady();
    const token = await accessToken(server.base, 'admin@example.com', ADMIN_PASSWORD);
    const postmaster = await livePostmaster(server.pgData);
    process.kill(postmaster!.pid, 'SIGINT');
    expect(
      await waitFor(
        async () => (await runningPostmaster(server.pgData))?.pid,
        (pid) => pid !== postmaster!.pid,
        10_000,
      ),
      'the postmaster stopped',
    ).not.toBe(postmaster!.pid);
    const ready = await fetch(`${server.base}/api/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'not ready' });
    const membership = () =>
      fetch(`${server.base}/api/membership`, { headers: dpopHeaders(token, 'GET', `${server.base}/api/membership`) });
    const call = await membership();
    expect(call.status).toBe(503);
    expect(((await call.json()) as { message: string }).message).toMatch(/database/i);

    const status = await waitFor(
      async () => (await membership()).status,
      (answer) => answer === 200,
      30_000,
    );
    expect(status).toBe(200);
    expect(running.output()).toContain('The embedded PostgreSQL stopped unexpectedly; starting it again');
    running.child.kill('SIGTERM');
    expect(await exited(running.child)).toBe(0);
  });

  it('finishes a request in flight when told to stop with SIGTERM', { timeout: 60_000 }, async () => {
    const running = server.start();
    await server.waitReady();
    const token = await accessToken(server.base, 'admin@example.com', ADMIN_PASSWORD);
    const body = JSON.stringify({ name: 'in-flight package', description: 'sent in two halves' });
    // The request's headers go first with Expect: 100-continue, so the server's 100 Continue tells the test it has the
    // request in hand; half the body follows, then SIGTERM, and the rest only once the server says it is stopping.
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        `${server.base}/api/discountPackage`,
        {
          method: 'POST',
          headers: {
            ...dpopHeaders(token, 'POST', `${server.base}/api/discountPackage`),
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            expect: '100-continue',
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      request.on('error', (error) => reject(new Error(`${error.message}; server said: ${running.output()}`)));
      request.on('continue', () => {
        request.write(body.slice(0, 20), () => {
          running.child.kill('SIGTERM');
          void waitFor(
            () => running.output().includes(STOPPING),
            (stopping) => stopping,
            10_000,
          ).then(() => request.end(body.slice(20)));
        });
      });
      request.flushHeaders();
    });
    const { status, text } = await answer;
    expect(status).toBe(201);
    expect(text).toContain('in-flight package');
    expect(await exited(running.child)).toBe(0);
    expect(running.output()).toContain(STOPPING);
  });
});

/**
 * The server's PostgreSQL as its pid file names it, once there is one to read: a PostgreSQL the server has just
 * started again writes the file while it starts, so a read at that moment finds none or half of one.
 */
const livePostmaster = (pgData: string) =>
  waitFor(
    () => runningPostmaster(pgData),
    (postmaster) => postmaster !== null,
    15_000,
  );
