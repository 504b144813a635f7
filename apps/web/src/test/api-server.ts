import { setupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/** A stand-in API for component tests (never part of the product); each test installs its own answers. */
export const apiServer = setupServer();

export function useApiServer() {
  // What the stand-in answered that the real API never would: checked once each test is over.
  let answered: Promise<string | null>[] = [];
  const listen = ({ request, response }: { request: Request; response: Response }) =>
    void answered.push(unlikeTheApi(request, response.clone()));
  beforeAll(() => {
    apiServer.listen({ onUnhandledRequest: 'error' });
    apiServer.events.on('response:mocked', listen);
  });
  afterEach(async () => {
    apiServer.resetHandlers();
    const wrong = (await Promise.all(answered)).filter((problem) => problem !== null);
    answered = [];
    expect(wrong, 'answers of the stand-in API unlike the real one').toEqual([]);
  });
  afterAll(() => {
    apiServer.events.removeListener('response:mocked', listen);
    apiServer.close();
  });
}

/**
 * Why an answer is one the real API never gives, or null: a list call with `limit` is answered with `page`, and
 * every other successful call without it (see the contracts' lists.ts).
 */
async function unlikeTheApi(request: Request, response: Response): Promise<string | null> {
  if (!response.headers.get('content-type')?.includes('json')) return null;
  const body: unknown = await response.json().catch(() => null);
  if (typeof body !== 'object' || body === null || !('isError' in body) || body.isError !== false) return null;
  const paged = new URL(request.url).searchParams.has('limit');
  const withPage = 'page' in body;
  if (paged === withPage) return null;
  return `${request.method} ${request.url} answered ${withPage ? 'with' : 'without'} page`;
}

export const envelope = <T>(data: T[] | T, message = '') => ({
  isError: false,
  message,
  data: Array.isArray(data) ? data : [data],
});
export const failure = (message: string) => ({ isError: true, message, data: [] });

/**
 * A list call's answer as the API gives it: with `limit`, the page of `rows` that starts at `cursor` and `page` (where
 * the next one starts, null on the last, and how many rows the list has); without `limit`, the whole list. The cursor
 * is opaque to the app; here it is the index of the next page's first row.
 */
export function listAnswer<T>(request: Request, rows: readonly T[]) {
  const query = new URL(request.url).searchParams;
  const limit = query.get('limit');
  if (limit === null) return envelope([...rows]);
  const start = Number(query.get('cursor') ?? 0);
  const end = start + Number(limit);
  return {
    ...envelope(rows.slice(start, end)),
    page: { nextCursor: end < rows.length ? String(end) : null, total: rows.length },
  };
}

/**
 * GET /api/security/factors for an account with no second factor: the password change and closing the account ask
 * for it to know whether to show the code field.
 */
export const withoutSecondFactor = http.get('*/security/factors', () =>
  HttpResponse.json(
    envelope([{ passkeys: [], totp: { enabled: false, createdAt: null }, recoveryCodes: { remaining: 0 } }]),
  ),
);
