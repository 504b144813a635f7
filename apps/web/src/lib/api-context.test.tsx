import { act, render } from '@testing-library/react';
import { useEffect } from 'react';
import { AuthContext, type AuthContextProps } from 'react-oidc-context';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, signedInUser } from '../test/render.js';
import { ApiProvider, useApi } from './api-context.js';
import type { ApiClient } from './api-client.js';

describe('the API connection screens wait for', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('becomes usable once the member is signed in, and sends the bearer token', async () => {
    vi.useFakeTimers();
    const fetchSpy = vi.fn(async () => new Response('{"isError":false,"message":"","data":[]}', { status: 200 }));
    vi.stubGlobal('fetch', fetchSpy);
    let waitForApi: (() => Promise<ApiClient>) | undefined;
    function Probe() {
      const api = useApi();
      useEffect(() => {
        waitForApi = api;
      }, [api]);
      return null;
    }
    const tree = (auth: AuthContextProps) => (
      <AuthContext.Provider value={auth}>
        <ApiProvider baseUrl="/api">
          <Probe />
        </ApiProvider>
      </AuthContext.Provider>
    );
    const view = render(tree(fakeAuth({ isLoading: true })));
    const pending = waitForApi!();
    await act(async () => vi.advanceTimersByTime(300));
    view.rerender(tree(fakeAuth({ user: signedInUser() })));
    await act(async () => vi.advanceTimersByTime(100));
    const client = await pending;
    await client.get('/membership');
    expect(fetchSpy).toHaveBeenCalledWith(
      '/api/membership',
      expect.objectContaining({ headers: expect.objectContaining({ Authorization: 'Bearer access-token' }) }),
    );
  });

  it('gives up after 50 x 100 ms with "Unable to initialize API connection"', async () => {
    vi.useFakeTimers();
    let waitForApi: (() => Promise<ApiClient>) | undefined;
    function Probe() {
      waitForApi = useApi();
      return null;
    }
    render(
      <AuthContext.Provider value={fakeAuth()}>
        <ApiProvider baseUrl="/api">
          <Probe />
        </ApiProvider>
      </AuthContext.Provider>,
    );
    const result = waitForApi!().catch((error: Error) => error.message);
    await act(async () => vi.advanceTimersByTimeAsync(4999));
    expect(await Promise.race([result, 'still waiting'])).toBe('still waiting');
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(await result).toBe('Unable to initialize API connection');
  });
});

describe('a token the API refuses (401: revoked or expired on the server)', () => {
  afterEach(() => vi.unstubAllGlobals());

  async function clientFor(auth: AuthContextProps): Promise<ApiClient> {
    let waitForApi: (() => Promise<ApiClient>) | undefined;
    function Probe() {
      waitForApi = useApi();
      return null;
    }
    render(
      <AuthContext.Provider value={auth}>
        <ApiProvider baseUrl="/api">
          <Probe />
        </ApiProvider>
      </AuthContext.Provider>,
    );
    return waitForApi!();
  }

  it('is renewed once and the call sent again with the new token', async () => {
    const bearers: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const bearer = (init.headers as Record<string, string>)['Authorization']!;
        bearers.push(bearer);
        return bearer === 'Bearer renewed-token'
          ? new Response('{"isError":false,"message":"","data":[{"id":1}]}', { status: 200 })
          : new Response('{"isError":true,"message":"Your session has ended. Please sign in again.","data":[]}', {
              status: 401,
            });
      }),
    );
    const renewed = signedInUser();
    Object.assign(renewed, { access_token: 'renewed-token' });
    const auth = fakeAuth({ user: signedInUser(), signinSilent: vi.fn(async () => renewed) });
    const client = await clientFor(auth);
    expect(await client.get('/membership')).toEqual({ isError: false, message: '', data: [{ id: 1 }] });
    expect(bearers).toEqual(['Bearer access-token', 'Bearer renewed-token']);
    expect(auth.signinSilent).toHaveBeenCalledTimes(1);
    expect(auth.removeUser).not.toHaveBeenCalled();
  });

  it('ends the signed-in state when renewal fails, so the member is sent to sign in', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('{"isError":true,"message":"Your session has ended. Please sign in again.","data":[]}', {
            status: 401,
          }),
      ),
    );
    const auth = fakeAuth({
      user: signedInUser(),
      signinSilent: vi.fn(async () => {
        throw new Error('invalid_grant');
      }),
    });
    const client = await clientFor(auth);
    const results = await Promise.allSettled([client.get('/membership'), client.get('/UserSubscriptions')]);
    for (const result of results) {
      expect(result).toMatchObject({
        status: 'rejected',
        reason: { status: 401, message: 'Your session has ended. Please sign in again.' },
      });
    }
    // Two refused calls at once renew once.
    expect(auth.signinSilent).toHaveBeenCalledTimes(1);
    expect(auth.removeUser).toHaveBeenCalledTimes(1);
  });
});
