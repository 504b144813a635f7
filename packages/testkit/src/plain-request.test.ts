import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { plainRequest } from './plain-request.js';

/**
 * A server that answers each connection's first request and closes the connection, unanswered, when a second request
 * comes on it: as a server whose idle time for a kept-alive connection ran out as the request went out.
 */
const served: string[] = [];
const server = http.createServer((request, response) => {
  const count = (request.socket as { served?: number }).served ?? 0;
  (request.socket as { served?: number }).served = count + 1;
  if (count > 0) {
    request.socket.destroy();
    return;
  }
  if (request.url === '/never') {
    request.socket.destroy();
    return;
  }
  served.push(request.url!);
  response.end(`answered ${request.url}`);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('a scripted browser’s plain request', () => {
  it('is sent again on a new connection when the kept-alive one it went out on is closed unanswered', async () => {
    expect(await (await plainRequest(`${base}/first`)).text()).toBe('answered /first');
    const again = await plainRequest(`${base}/second`, { method: 'POST', body: 'x=1' });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('answered /second');
    expect(served).toEqual(['/first', '/second']);
  });

  it('fails when a new connection is closed unanswered: that is the server’s answer, not an idle connection', async () => {
    await expect(plainRequest(`${base}/never`)).rejects.toThrow('socket hang up');
  });
});
