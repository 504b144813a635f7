import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { MEMBER, testApp } from './helper.js';
import { rawAnswers } from './raw-answers.js';
import { HELMET_HEADERS } from './security-headers.js';

const ctx = await testApp({ env: { REQUEST_TIMEOUT: '2' } });
await ctx.app.listen({ port: 0, host: '127.0.0.1' });
const { port } = ctx.app.server.address() as AddressInfo;

/**
 * Sends `parts` on a new connection, `gapMs` apart, and reads until the server closes it: what came back and when
 * (milliseconds after the first part), or what came back by `giveUpMs` if it is still open then.
 */
function converse(parts: string[], gapMs: number, giveUpMs = 10_000) {
  return new Promise<{ answer: string; closedAfterMs: number | null }>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const started = performance.now();
    let answer = '';
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve({ answer, closedAfterMs: null });
    }, giveUpMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ answer, closedAfterMs: performance.now() - started });
    });
    parts.forEach((part, i) => setTimeout(() => socket.writable && socket.write(part), i * gapMs));
  });
}

describe('a request must arrive whole within REQUEST_TIMEOUT', () => {
  it('answers 408 and closes the connection of a request whose headers or body stop coming, one answered early included', async () => {
    const path = '/api/userdetails/internal';
    const { authorization, dpop } = await ctx.signedInOverNetwork(MEMBER, 'POST', path);
    const bodyStarted = (headers: string) => [
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}`,
      'Content-Type: application/json\r\n',
      'Content-Length: 64\r\n\r\n{"first',
    ];
    const [headersStopped, bodyStopped, answeredEarly] = await Promise.all([
      converse(['GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '], 0),
      converse(bodyStarted(`Authorization: ${authorization}\r\nDPoP: ${dpop}\r\n`), 100),
      // No token: answered 401 before its body, and the connection still cut when the rest of it does not come.
      converse(bodyStarted(''), 100),
    ]);
    expect(headersStopped.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(bodyStopped.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answeredEarly.answer).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n[^]*HTTP\/1\.1 408 Request Timeout\r\n/);
    for (const { closedAfterMs } of [headersStopped, bodyStopped, answeredEarly]) {
      expect(closedAfterMs).not.toBeNull();
      // Cut once the two seconds have passed, and at most a quarter of them (the connections' check) plus slack later.
      expect(closedAfterMs!).toBeGreaterThanOrEqual(2000);
      expect(closedAfterMs!).toBeLessThan(4000);
    }
  });

  it("answers its 408 as every failure: the security headers, no-store and the envelope, with the id of the request that stopped (the 401's when it was answered early)", async () => {
    const [headersStopped, answeredEarly] = await Promise.all([
      converse(['GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '], 0),
      converse(
        [
          'POST /api/userdetails/internal HTTP/1.1\r\nHost: 127.0.0.1\r\n',
          'Content-Type: application/json\r\nContent-Length: 64\r\n\r\n{"first',
        ],
        100,
      ),
    ]);
    const served = (await fetch(`http://127.0.0.1:${port}/api/health`)).headers;
    const [early, earlyTimedOut] = rawAnswers(answeredEarly.answer);
    for (const answer of [rawAnswers(headersStopped.answer)[0]!, earlyTimedOut!]) {
      expect(answer.status).toBe('HTTP/1.1 408 Request Timeout');
      // Every security header a served answer has, with the same value.
      for (const name of HELMET_HEADERS) expect(answer.headers[name], name).toBe(served.get(name));
      expect(answer.headers['cache-control']).toBe('no-store');
      const id = answer.headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(answer.body)).toEqual({
        isError: true,
        message: 'The request did not arrive whole within the time allowed',
        data: [],
        requestId: id,
      });
    }
    expect(early!.status).toBe('HTTP/1.1 401 Unauthorized');
    expect(earlyTimedOut!.headers['x-request-id']).toBe(early!.headers['x-request-id']);
  });

  it('answers a request sent slowly that is whole within the time', async () => {
    const request = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';
    // In 8 pieces over 700 ms.
    const pieces = Array.from({ length: 8 }, (_, i) =>
      request.slice((i * request.length) / 8, ((i + 1) * request.length) / 8),
    );
    const { answer } = await converse(pieces, 100);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});
