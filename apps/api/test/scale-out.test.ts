import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/client.js';
import { runningEmbeddedUrl } from '../src/db/embedded.js';
import { createAccountService } from '../src/identity/accounts.service.js';
import {
  attemptSignIn,
  browser,
  dpopHeaders,
  refresh,
  signIn,
  signOut,
  signsInSilently,
} from '@ums/testkit/oidc-browser';
import { exited } from '@ums/testkit/server-process';
import { prepareServer } from '@ums/testkit/server-process';
import { SOURCES } from './server-process.js';

// The production shape: two server processes behind a load balancer that sends each request to the next process in
// turn, one PostgreSQL (the embedded cluster of the first, reached by the second through DATABASE_URL), one public
// address. Nothing a process keeps in memory may be needed by the other.

interface Balancer {
  base: string;
  /** Which backend answered each request (its index), in order. */
  served: { backend: number; method: string; path: string }[];
  close(): Promise<void>;
}

/** A round-robin HTTP load balancer on a loopback port: the Host header is passed through, as real ones do. */
async function balancer(backends: () => string[]): Promise<Balancer> {
  const served: Balancer['served'] = [];
  let next = 0;
  const server = http.createServer((request, response) => {
    const index = next++ % backends().length;
    served.push({ backend: index, method: request.method!, path: request.url! });
    const target = new URL(backends()[index]!);
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const PASSWORD = 'Scale-Out-Pass-2026!';
const WRONG = 'Not-The-Password-1!';
const children: ChildProcess[] = [];
let urls: string[] = [];
const front = await balancer(() => urls);
const first = await prepareServer({ entry: SOURCES, env: { PUBLIC_URL: front.base } });
let second: Awaited<ReturnType<typeof prepareServer>>;
let accounts: ReturnType<typeof createAccountService>;
let closeDatabase = async () => {};

beforeAll(async () => {
  children.push(first.start().child);
  await first.waitReady();
  const databaseUrl = await runningEmbeddedUrl(first.dataDir);
  if (!databaseUrl) throw new Error('the first server has no embedded PostgreSQL running');
  const { db, pool } = createDatabase(databaseUrl);
  accounts = createAccountService({ db });
  closeDatabase = () => pool.end();
  // The second process has the first one's secrets key, as every process of one product has.
  second = await prepareServer({
    entry: SOURCES,
    env: {
      PUBLIC_URL: front.base,
      DATABASE_URL: databaseUrl,
      SECRETS_KEY_FILE: path.join(first.dataDir, 'secrets.key'),
    },
  });
  children.push(second.start().child);
  await second.waitReady();
  urls = [first.base, second.base];
}, 120_000);

afterAll(async () => {
  // The second first: it uses the first one's PostgreSQL.
  for (const child of children.reverse()) {
    child.kill('SIGTERM');
    await exited(child);
  }
  await closeDatabase();
  await front.close();
  await Promise.all([first.cleanup(), second?.cleanup()]);
});

/** The API on one process, called as the browser calls the product: its proof names the public address. */
const api = (base: string, token: string) =>
  fetch(`${base}/api/PaymentHistory`, { headers: dpopHeaders(token, 'GET', `${front.base}/api/PaymentHistory`) });

async function newMember(): Promise<string> {
  const email = `scale-${randomBytes(4).toString('hex')}@example.com`;
  await accounts.add({ email, password: PASSWORD });
  return email;
}

describe('two server processes on one PostgreSQL behind a load balancer', () => {
  it('sign a member in with the steps of the sign-in answered by both processes in turn, and serve the API on each', async () => {
    const email = await newMember();
    const from = front.served.length;
    const tokens = await signIn(front.base, email, PASSWORD);
    // authorize, sign-in page, credentials, resume, token: each process answered part of one sign-in.
    expect(new Set(front.served.slice(from).map((r) => r.backend))).toEqual(new Set([0, 1]));
    expect((await api(first.base, tokens.access_token)).status).toBe(200);
    expect((await api(second.base, tokens.access_token)).status).toBe(200);
  });

  it('refresh on either process, each refresh token once: the rotated one works on the other process', async () => {
    const email = await newMember();
    const tokens = await signIn(front.base, email, PASSWORD);
    const onFirst = await refresh(first.base, tokens.refresh_token, undefined, front.base);
    expect(onFirst.status).toBe(200);
    const onSecond = await refresh(second.base, onFirst.body.refresh_token!, undefined, front.base);
    expect(onSecond.status).toBe(200);
    expect((await api(first.base, onSecond.body.access_token!)).status).toBe(200);
    // A used refresh token is spent on every process (and rotation ends the grant it belonged to).
    expect((await refresh(second.base, tokens.refresh_token, undefined, front.base)).status).toBe(400);
  });

  it('keep one provider session for both processes: signed in at either, signed out through one means out at both', async () => {
    const email = await newMember();
    const tokens = await signIn(front.base, email, PASSWORD);
    expect(await signsInSilently(first.base, tokens.go, front.base)).toBe(true);
    expect(await signsInSilently(second.base, tokens.go, front.base)).toBe(true);

    // The sign-out page from one process, its confirmation to the other.
    const from = front.served.length;
    expect((await signOut(front.base, tokens.go, tokens.id_token)).status).toBe(303);
    expect(front.served.slice(from, from + 2).map((r) => r.backend)).toContain(0);
    expect(front.served.slice(from, from + 2).map((r) => r.backend)).toContain(1);
    expect(await signsInSilently(first.base, tokens.go, front.base)).toBe(false);
    expect(await signsInSilently(second.base, tokens.go, front.base)).toBe(false);
  });

  it('count sign-in attempts once for both processes: of 40 wrong guesses sent at once to both, 5 are checked', async () => {
    const email = await newMember();
    const from = front.served.length;
    const answers = await Promise.all(Array.from({ length: 40 }, () => attemptSignIn(front.base, email, WRONG)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    const posted = front.served.slice(from).filter((r) => r.method === 'POST');
    expect(new Set(posted.map((r) => r.backend))).toEqual(new Set([0, 1]));

    // The right password from the same address is refused while the limit holds, whichever process checks it.
    const answer = async () => (await attemptSignIn(front.base, email, PASSWORD, {}, browser())).status;
    expect([await answer(), await answer()]).toEqual([429, 429]);
    const lastTwo = front.served.filter((r) => r.method === 'POST').slice(-2);
    expect(new Set(lastTwo.map((r) => r.backend))).toEqual(new Set([0, 1]));
  });
});
