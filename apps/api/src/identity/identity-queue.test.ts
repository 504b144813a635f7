import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { identityQueue } from './identity-queue.js';

/** A request to `url`, its reply (whose raw response says 'close' when the test ends it) and whether it went on. */
function call(url: string) {
  const raw = new EventEmitter();
  const state = { passed: false, busy: false };
  return {
    request: { raw: { url } } as unknown as FastifyRequest,
    reply: { raw, sent: state } as unknown as FastifyReply,
    done: () => void (state.passed = true),
    state,
    answer: () => raw.emit('close'),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the identity request queue', () => {
  afterEach(() => void vi.useRealTimers());
  const make = (queued = 2) =>
    identityQueue({
      isIdentity: (url) => url.startsWith('/oidc/'),
      startsFlow: (url) => url.startsWith('/oidc/auth'),
      busy: (reply) => void ((reply as unknown as { sent: { busy: boolean } }).sent.busy = true),
      atOnce: 2,
      queued,
      turnMs: 5000,
    });

  it('lets so many identity requests through at once, the next in the order they came as each is answered', async () => {
    const queue = make();
    const calls = ['/oidc/token', '/oidc/interaction/a', '/oidc/interaction/b', '/oidc/me'].map(call);
    for (const c of calls) queue.hook(c.request, c.reply, c.done);
    await settle();
    expect(calls.map((c) => c.state.passed)).toEqual([true, true, false, false]);
    expect(queue.waiting).toBe(2);
    calls[1]!.answer();
    await settle();
    expect(calls.map((c) => c.state.passed)).toEqual([true, true, true, false]);
    calls[0]!.answer();
    await settle();
    expect(calls.map((c) => c.state.passed)).toEqual([true, true, true, true]);
    expect(queue.waiting).toBe(0);
  });

  it('lets the requests of sign-ins under way go before those that start one, each kind in the order it came', async () => {
    const queue = make(3);
    const [first, second, start, password, token] = [
      '/oidc/auth?client_id=web',
      '/oidc/auth?client_id=web',
      '/oidc/auth?client_id=web',
      '/oidc/interaction/a/login',
      '/oidc/token',
    ].map(call);
    for (const c of [first!, second!, start!, password!, token!]) queue.hook(c.request, c.reply, c.done);
    await settle();
    first!.answer();
    await settle();
    // The new sign-in came first, but the password of one under way goes before it.
    expect([start!.state.passed, password!.state.passed, token!.state.passed]).toEqual([false, true, false]);
    second!.answer();
    await settle();
    expect([start!.state.passed, token!.state.passed]).toEqual([false, true]);
    password!.answer();
    await settle();
    expect(start!.state.passed).toBe(true);
  });

  it('never holds the API’s requests, however many identity requests wait', async () => {
    const queue = make();
    for (const c of ['/oidc/auth', '/oidc/auth', '/oidc/auth', '/oidc/auth'].map(call)) {
      queue.hook(c.request, c.reply, c.done);
    }
    const api = call('/api/test/auth');
    queue.hook(api.request, api.reply, api.done);
    expect(api.state.passed).toBe(true);
  });

  it('answers busy at once past so many waiting, and queues again once a turn is free', async () => {
    const queue = make();
    const calls = ['/oidc/auth', '/oidc/auth', '/oidc/auth', '/oidc/auth'].map(call);
    for (const c of calls) queue.hook(c.request, c.reply, c.done);
    await settle();
    const over = call('/oidc/auth');
    queue.hook(over.request, over.reply, over.done);
    expect(over.state).toEqual({ passed: false, busy: true });
    calls[0]!.answer();
    await settle();
    const next = call('/oidc/auth');
    queue.hook(next.request, next.reply, next.done);
    expect(next.state.busy).toBe(false);
  });

  it('hands a turn on after 5 s however slowly its client sends, and only once when the answer comes later', async () => {
    vi.useFakeTimers();
    const queue = make();
    const [slow, other, waiting, after] = ['/oidc/interaction/a/login', '/oidc/token', '/oidc/me', '/oidc/me'].map(
      call,
    );
    queue.hook(slow!.request, slow!.reply, slow!.done);
    await vi.advanceTimersByTimeAsync(1000);
    for (const c of [other!, waiting!]) queue.hook(c.request, c.reply, c.done);
    await vi.advanceTimersByTimeAsync(3999);
    expect(waiting!.state.passed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(waiting!.state.passed).toBe(true);
    // The slow request's answer, when it comes, frees no second turn: two are held (other, waiting), so one more waits.
    slow!.answer();
    queue.hook(after!.request, after!.reply, after!.done);
    expect(after!.state.passed).toBe(false);
    expect(queue.waiting).toBe(1);
  });
});
