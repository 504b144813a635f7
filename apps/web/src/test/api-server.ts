import { setupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** A stand-in API for component tests (never part of the product); each test installs its own answers. */
export const apiServer = setupServer();

export function useApiServer() {
  beforeAll(() => apiServer.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => apiServer.resetHandlers());
  afterAll(() => apiServer.close());
}

export const envelope = <T>(data: T[] | T, message = '') => ({
  isError: false,
  message,
  data: Array.isArray(data) ? data : [data],
});
export const failure = (message: string) => ({ isError: true, message, data: [] });

/**
 * GET /api/security/factors for an account with no second factor: the password change and closing the account ask
 * for it to know whether to show the code field.
 */
export const withoutSecondFactor = http.get('*/security/factors', () =>
  HttpResponse.json(
    envelope([{ passkeys: [], totp: { enabled: false, createdAt: null }, recoveryCodes: { remaining: 0 } }]),
  ),
);
