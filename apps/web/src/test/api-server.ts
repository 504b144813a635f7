import { setupServer } from 'msw/node';
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
