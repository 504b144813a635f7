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
