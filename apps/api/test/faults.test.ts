import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { runningPostmaster } from '../src/db/embedded.js';
import { accessToken } from '@ums/testkit/oidc-browser';
import { exited } from '@ums/testkit/server-process';
import { serverProcess } from './server-process.js';

const ADMIN_PASSWORD = 'Fault-Admin-2026!';
const server = await serverProcess({ DEMO_ADMIN_PASSWORD: ADMIN_PASSWORD, DEMO_MEMBER_PASSWORD: 'Fault-Member-2026!' });
const KILLS = 20;

async function createPackage(token: string, name: string) {
  const response = await fetch(`${server.base}/api/discountPackage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, description: 'written during the fault test' }),
  });
  return response.status;
}

async function packageNames(token: string): Promise<Set<string>> {
  const response = await fetch(`${server.base}/api/discountPackage`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { data: { name: string }[] };
  return new Set(body.data.map((p) => p.name));
}

describe('faults', () => {
  it(`loses no acknowledged write when killed with SIGKILL ${KILLS} times`, { timeout: 300_000 }, async () => {
    let running = server.start();
    await server.waitReady();
    const token = await accessToken(server.base, 'admin@example.com', ADMIN_PASSWORD);
    const acknowledged: string[] = [];
    for (let round = 0; round < KILLS; round++) {
      let writing = true;
      const writer = async (lane: number) => {
        for (let i = 0; writing; i++) {
          const name = `fault-${round}-${lane}-${i}`;
          const status = await createPackage(token, name).catch(() => 0);
          if (status >= 200 && status < 300) acknowledged.push(name);
        }
      };
      const writers = [0, 1, 2].map(writer);
      await new Promise((r) => setTimeout(r, 150 + Math.floor(Math.random() * 350)));
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
    running.child.kill('SIGTERM');
    expect(await exited(running.child)).toBe(0);
  });

  it('answers 503 while its PostgreSQL is down and recovers by itself', { timeout: 60_000 }, async () => {
    const running = server.start();
    await server.waitReady();
    const token = await accessToken(server.base, 'admin@example.com', ADMIN_PASSWORD);
    const postmaster = await runningPostmaster(server.pgData);
    process.kill(postmaster!.pid, 'SIGINT');
    while (await runningPostmaster(server.pgData).then((r) => r?.pid === postmaster!.pid)) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const ready = await fetch(`${server.base}/api/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'not ready' });
    const call = await fetch(`${server.base}/api/membership`, { headers: { authorization: `Bearer ${token}` } });
    expect(call.status).toBe(503);
    expect(((await call.json()) as { message: string }).message).toMatch(/database/i);

    const deadline = Date.now() + 30_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await fetch(`${server.base}/api/membership`, { headers: { authorization: `Bearer ${token}` } })).status;
    }
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
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        `${server.base}/api/discountPackage`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      request.on('error', (error) => reject(new Error(`${error.message}; server said: ${running.output()}`)));
      request.write(body.slice(0, 20));
      setTimeout(() => {
        running.child.kill('SIGTERM');
        setTimeout(() => request.end(body.slice(20)), 500);
      }, 300);
    });
    const { status, text } = await answer;
    expect(status).toBe(201);
    expect(text).toContain('in-flight package');
    expect(await exited(running.child)).toBe(0);
    expect(running.output()).toContain('SIGTERM: finishing requests in flight, then stopping');
  });
});
