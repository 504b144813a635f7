import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { identityQueue, STARTS_EVERY } from './identity-queue.js';
import { IDENTITY_BUSY } from './pages.js';
import { answerBusy, countedAddress } from './provider-mount.js';

/**
 * A request to `url` from `ip`: whether it went on, whether it was told the service is busy, and its client's moves.
 */
function call(url: string, ip = '192.0.2.1') {
  const raw = Object.assign(new EventEmitter(), { destroyed: false });
  const state = { passed: false, busy: false };
  return {
    request: { raw: { url } } as unknown as FastifyRequest,
    reply: raw,
    hook: (queue: ReturnType<typeof identityQueue>) =>
      queue.hook(
        { raw: { url }, ip, state } as unknown as FastifyRequest,
        { raw } as unknown as FastifyReply,
        () => void (state.passed = true),
      ),
    state,
    /** The answer is sent (or the client leaves): the response closes. */
    answer: () => raw.emit('close'),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the identity request queue', () => {
  afterEach(() => void vi.useRealTimers());
  const make = (queued = 2, queuedPerAddress = 100) =>
    identityQueue({
      isIdentity: (url) => url.startsWith('/oidc/'),
      startsFlow: (url) => url.startsWith('/oidc/auth'),
      addressOf: countedAddress,
      busy: (request) => void ((request as unknown as { state: { busy: boolean } }).state.busy = true),
      atOnce: 2,
      queued,
      queuedPerAddress,
      turnMs: 5000,
    });

  it('lets so many identity requests through at once, the next in the order they came as each is answered', async () => {
    const queue = make();
    const calls = ['/oidc/token', '/oidc/interaction/a', '/oidc/interaction/b', '/oidc/me'].map((url) => call(url));
    for (const c of calls) c.hook(queue);
    await settle();
    expect(calls.map((c) => c.state.passed)).toEqual([true, true, false, false]);
    calls[1]!.answer();
    await settle();
    expect(calls.map((c) => c.state.passed)).toEqual([true, true, true, false]);
    calls[0]!.answer();
    await settle();
    expect(calls.map((c) => c.state.passed)).toEqual([true, true, true, true]);
  });

  it('lets the requests of sign-ins under way go before those that start one, each kind in the order it came', async () => {
    const queue = make(3);
    const [first, second, start, password, token] = [
      '/oidc/auth?client_id=web',
      '/oidc/auth?client_id=web',
      '/oidc/auth?client_id=web',
      '/oidc/interaction/a/login',
      '/oidc/token',
    ].map((url) => call(url));
    for (const c of [first!, second!, start!, password!, token!]) c.hook(queue);
    first!.answer();
    // The new sign-in came first, but the password of one under way goes before it.
    expect([start!.state.passed, password!.state.passed, token!.state.passed]).toEqual([false, true, false]);
    second!.answer();
    expect([start!.state.passed, token!.state.passed]).toEqual([false, true]);
    password!.answer();
    expect(start!.state.passed).toBe(true);
  });

  it(`gives a sign-in's start one turn in ${STARTS_EVERY} however many requests claim to continue one`, () => {
    const queue = make(100);
    const [a, b] = ['/oidc/token', '/oidc/token'].map((url) => call(url));
    for (const c of [a!, b!]) c.hook(queue);
    const start = call('/oidc/auth?client_id=web');
    start.hook(queue);
    const others = Array.from({ length: 10 }, () => call('/oidc/token'));
    for (const c of others) c.hook(queue);
    // Turns handed on one by one: the start has its turn by the STARTS_EVERY-th, not after all ten others.
    const running = [a!, b!];
    const answered = new Set<ReturnType<typeof call>>();
    for (let turn = 1; turn <= STARTS_EVERY; turn++) {
      const finished = running.shift()!;
      finished.answer();
      answered.add(finished);
      running.push([start, ...others].find((c) => c.state.passed && !running.includes(c) && !answered.has(c))!);
    }
    expect(start.state.passed).toBe(true);
    expect(others.filter((c) => c.state.passed)).toHaveLength(STARTS_EVERY - 1);
  });

  it('gives up the place of a request whose client leaves while it waits', () => {
    const queue = make();
    const [a, b, left, next] = ['/oidc/token', '/oidc/token', '/oidc/me', '/oidc/me'].map((url) => call(url));
    for (const c of [a!, b!, left!, next!]) c.hook(queue);
    expect(queue.waiting).toBe(2);
    left!.answer();
    expect(queue.waiting).toBe(1);
    a!.answer();
    // The turn goes past the one that left, to the next.
    expect([left!.state.passed, next!.state.passed]).toEqual([false, true]);
  });

  it('never holds the API’s requests, however many identity requests wait', () => {
    const queue = make();
    for (const c of ['/oidc/auth', '/oidc/auth', '/oidc/auth', '/oidc/auth'].map((url) => call(url))) c.hook(queue);
    const api = call('/api/test/auth');
    api.hook(queue);
    expect(api.state.passed).toBe(true);
  });

  it('answers busy at once past so many waiting, and queues again once a turn is free', () => {
    const queue = make();
    const calls = ['/oidc/auth', '/oidc/auth', '/oidc/auth', '/oidc/auth'].map((url) => call(url));
    for (const c of calls) c.hook(queue);
    const over = call('/oidc/auth');
    over.hook(queue);
    expect(over.state).toEqual({ passed: false, busy: true });
    calls[0]!.answer();
    const next = call('/oidc/auth');
    next.hook(queue);
    expect(next.state.busy).toBe(false);
  });

  it("answers one address busy past its share of the waiting room, and still queues every other address's requests", () => {
    const queue = make(100, 3);
    const flood = Array.from({ length: 8 }, () => call('/oidc/interaction/x/login', '198.51.100.7'));
    for (const c of flood) c.hook(queue);
    // Two run, three wait, and the flooding address's other three are told at once that the service is busy.
    expect(flood.map((c) => c.state.busy)).toEqual([false, false, false, false, false, true, true, true]);
    const member = call('/oidc/auth', '203.0.113.5');
    member.hook(queue);
    expect(member.state).toEqual({ passed: false, busy: false });
    // A waiting request of the address whose client leaves gives its place back to that address.
    flood[4]!.answer();
    const again = call('/oidc/interaction/x/login', '198.51.100.7');
    again.hook(queue);
    expect(again.state.busy).toBe(false);
    // Turns still go in order across addresses: the member's start comes when its turn does.
    for (const c of flood.slice(0, 4)) c.answer();
    expect(member.state.passed).toBe(true);
    // Each request of the address given its turn gave its place back: three may wait again, not a fourth.
    const later = Array.from({ length: 4 }, () => call('/oidc/interaction/x/login', '198.51.100.7'));
    for (const c of later) c.hook(queue);
    expect(later.map((c) => c.state.busy)).toEqual([false, false, false, true]);
  });

  it('counts an IPv6 /64 as one address, and never holds this machine itself to one address’s share', () => {
    const queue = make(100, 2);
    const running = ['192.0.2.10', '192.0.2.11'].map((ip) => call('/oidc/token', ip));
    for (const c of running) c.hook(queue);
    // Three addresses of one /64: one customer's network, one address's share.
    const network = ['2001:db8:1:2::a', '2001:db8:1:2:ffff::b', '2001:db8:1:2::c'].map((ip) => call('/oidc/token', ip));
    for (const c of network) c.hook(queue);
    expect(network.map((c) => c.state.busy)).toEqual([false, false, true]);
    // Another /64 of the same block is another address.
    const neighbour = call('/oidc/token', '2001:db8:1:3::a');
    neighbour.hook(queue);
    expect(neighbour.state.busy).toBe(false);
    const local = Array.from({ length: 5 }, () => call('/oidc/token', '127.0.0.1'));
    for (const c of local) c.hook(queue);
    expect(local.map((c) => c.state.busy)).toEqual([false, false, false, false, false]);
  });

  it('hands a turn on after 5 s however slowly its client sends, and only once when the answer comes later', async () => {
    vi.useFakeTimers();
    const queue = make();
    const [slow, other, waiting, after] = ['/oidc/interaction/a/login', '/oidc/token', '/oidc/me', '/oidc/me'].map(
      (url) => call(url),
    );
    slow!.hook(queue);
    await vi.advanceTimersByTimeAsync(1000);
    for (const c of [other!, waiting!]) c.hook(queue);
    await vi.advanceTimersByTimeAsync(3999);
    expect(waiting!.state.passed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(waiting!.state.passed).toBe(true);
    // The slow request's answer, when it comes, frees no second turn: two are held (other, waiting), so one more waits.
    slow!.answer();
    after!.hook(queue);
    expect(after!.state.passed).toBe(false);
    expect(queue.waiting).toBe(1);
  });

  it('answers busy with 503 and Retry-After: the error page to a browser, OAuth’s error to an endpoint’s caller', async () => {
    const app = Fastify();
    app.post('/oidc/token', answerBusy);
    app.get('/oidc/auth', answerBusy);
    const page = await app.inject({ method: 'GET', url: '/oidc/auth', headers: { accept: 'text/html,*/*' } });
    expect([page.statusCode, page.headers['retry-after'], page.headers['content-type']]).toEqual([
      503,
      '2',
      'text/html',
    ]);
    expect(page.body).toContain('The sign-in service is busy. Please try again in a moment.');
    const token = await app.inject({ method: 'POST', url: '/oidc/token' });
    expect([token.statusCode, token.headers['retry-after']]).toEqual([503, '2']);
    expect(token.json()).toEqual({ error: 'temporarily_unavailable', error_description: IDENTITY_BUSY });
    await app.close();
  });
});
