import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  createApiClient,
  errorMessage,
  listOf,
  StepUpRequiredError,
  waitForApiClient,
  type ApiClient,
} from './api-client.js';

function clientAnswering(status: number, body: string, token: string | null = 'tok') {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchStub = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(body || null, { status });
  }) as unknown as typeof fetch;
  return { client: createApiClient({ baseUrl: '/api', getToken: () => token, fetch: fetchStub }), calls };
}

async function failure(status: number, body: string) {
  const { client } = clientAnswering(status, body);
  return client.get('/x').then(
    () => {
      throw new Error('expected a failure');
    },
    (error: ApiError) => error,
  );
}

describe('api client', () => {
  afterEach(() => vi.useRealTimers());

  it('asks for a new sign-in with max_age when a sensitive action needs a recent one, without renewing the token', async () => {
    const stepUps: number[] = [];
    let renewals = 0;
    const fetchStub = (async () =>
      new Response(
        JSON.stringify({ isError: true, message: 'For your security, sign in again to do this.', data: [] }),
        {
          status: 401,
          headers: {
            'www-authenticate':
              'DPoP error="insufficient_user_authentication", error_description="A recent sign-in is required", max_age=300',
          },
        },
      )) as unknown as typeof fetch;
    const client = createApiClient({
      baseUrl: '/api',
      getToken: () => 'tok',
      fetch: fetchStub,
      onUnauthorized: async () => {
        renewals++;
        return 'renewed';
      },
      onStepUp: (maxAge) => stepUps.push(maxAge),
    });
    const error = await client.get('/me/export').catch((e: ApiError) => e);
    expect(error).toBeInstanceOf(StepUpRequiredError);
    expect(error).toMatchObject({ status: 401, maxAge: 300, message: 'For your security, sign in again to do this.' });
    // A download and a write say the same: the screen tells a step-up from a failure by the error's type.
    expect(await client.download('/me/export').catch((e: unknown) => e)).toBeInstanceOf(StepUpRequiredError);
    expect(await client.put('/admin/members/m/groups', { groups: [] }).catch((e: unknown) => e)).toBeInstanceOf(
      StepUpRequiredError,
    );
    expect(stepUps).toEqual([300, 300, 300]);
    expect(renewals).toBe(0);
  });

  it('downloads a file as its bytes, with the token, and reads a refusal as the envelope says', async () => {
    const { client, calls } = clientAnswering(200, '%PDF-1.3 receipt');
    const file = await client.download('/PaymentHistory/7/receipt');
    expect(await file.text()).toBe('%PDF-1.3 receipt');
    expect(calls[0]!.init).toMatchObject({ method: 'GET', headers: { Authorization: 'Bearer tok' } });

    const refused = clientAnswering(404, '{"isError":true,"message":"Order 7 was not found","data":[]}').client;
    const error = await refused.download('/PaymentHistory/7/receipt').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, message: 'Order 7 was not found' });
  });

  it('sends the bearer token and JSON headers, and the body for POST, PUT and DELETE', async () => {
    const { client, calls } = clientAnswering(200, '{"isError":false,"message":"","data":[]}');
    await client.post('/membership', { name: 'A' });
    await client.delete('/promotionalProduct', { productId: 1, membershipId: 2 });
    expect(calls[0]!.url).toBe('/api/membership');
    expect(calls[0]!.init).toMatchObject({
      method: 'POST',
      headers: { Authorization: 'Bearer tok', 'Content-Type': 'application/json' },
      body: '{"name":"A"}',
    });
    expect(calls[1]!.init).toMatchObject({ method: 'DELETE', body: '{"productId":1,"membershipId":2}' });
  });

  it('proves each request with the DPoP scheme when a proof is given: method, address without the query, token', async () => {
    const calls: RequestInit[] = [];
    const proofs: string[][] = [];
    const client = createApiClient({
      baseUrl: '/api',
      getToken: () => 'bound-token',
      proof: async (method, url, token) => {
        proofs.push([method, url, token]);
        return `proof-${proofs.length}`;
      },
      fetch: (async (_url: string, init: RequestInit) => {
        calls.push(init);
        return new Response('{"isError":false,"message":"","data":[]}', { status: 200 });
      }) as unknown as typeof fetch,
    });
    await client.get('/activity?limit=20');
    await client.delete('/sessions/abc');
    expect(proofs).toEqual([
      ['GET', 'http://localhost:3000/api/activity', 'bound-token'],
      ['DELETE', 'http://localhost:3000/api/sessions/abc', 'bound-token'],
    ]);
    expect(calls[0]!.headers).toEqual({
      Authorization: 'DPoP bound-token',
      DPoP: 'proof-1',
      'Content-Type': 'application/json',
    });
    expect(calls[1]!.headers).toMatchObject({ DPoP: 'proof-2' });
  });

  it('falls back to the bearer scheme when the browser holds no key to prove with', async () => {
    const calls: RequestInit[] = [];
    const client = createApiClient({
      baseUrl: '/api',
      getToken: () => 'tok',
      proof: async () => undefined,
      fetch: (async (_url: string, init: RequestInit) => {
        calls.push(init);
        return new Response('{"isError":false,"message":"","data":[]}', { status: 200 });
      }) as unknown as typeof fetch,
    });
    await client.get('/userdetails/');
    expect(calls[0]!.headers).toEqual({ Authorization: 'Bearer tok', 'Content-Type': 'application/json' });
  });

  it('answers null for a DELETE without a JSON body', async () => {
    expect(await clientAnswering(200, '').client.delete('/UserSubscriptions/1')).toBeNull();
  });

  it('follows the SPEC section 8 message order for non-OK answers', async () => {
    const cases: [number, string, string][] = [
      [400, '{"isError":true,"message":"Name is required","data":[]}', 'Name is required'],
      [400, '{"isError":true,"message":"","data":[]}', 'API request failed'],
      [409, '{"message":"Already there"}', 'Already there'],
      [
        400,
        '{"errors":{"name":["Name is required"],"productId":["Product is required","Bad"]}}',
        'Name is required. Product is required. Bad',
      ],
      [404, '{"title":"Not Found","detail":"No membership 7"}', 'Not Found: No membership 7'],
      [404, '{"title":"Not Found"}', 'Not Found'],
      [502, 'Bad gateway from the proxy', 'Bad gateway from the proxy'],
      [503, '', 'HTTP error! status: 503'],
      [500, '{}', 'HTTP error! status: 500'],
    ];
    for (const [status, body, message] of cases) {
      const error = await failure(status, body);
      expect(error, body).toBeInstanceOf(ApiError);
      expect(error.message, body).toBe(message);
      expect(error.status, body).toBe(status);
    }
    expect(errorMessage(418, undefined, '')).toBe('HTTP error! status: 418');
  });

  it('raises an OK answer whose envelope says isError', async () => {
    const { client } = clientAnswering(200, '{"isError":true,"message":"","data":[]}');
    await expect(client.get('/x')).rejects.toThrow('API request failed');
  });

  it('is unusable before authentication has completed', async () => {
    await expect(clientAnswering(200, '{}', null).client.get('/x')).rejects.toThrow(
      'API client not initialized. Please wait for authentication to complete.',
    );
  });

  it('lists envelope data, and warns and answers [] for an unexpected shape', () => {
    expect(listOf({ isError: false, message: '', data: [1] })).toEqual([1]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(listOf({ items: [] })).toEqual([]);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('waits up to 50 x 100 ms for the client, then gives up with the fallback text', async () => {
    vi.useFakeTimers();
    let client: ApiClient | null = null;
    const ready = waitForApiClient(() => client);
    // The 50th try is at 4900 ms.
    await vi.advanceTimersByTimeAsync(4850);
    client = clientAnswering(200, '{}').client;
    await vi.advanceTimersByTimeAsync(100);
    await expect(ready).resolves.toBe(client);

    const never = waitForApiClient(() => null);
    const outcome = expect(never).rejects.toThrow('Unable to initialize API connection');
    await vi.advanceTimersByTimeAsync(5000);
    await outcome;
  });
});
