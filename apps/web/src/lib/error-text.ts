import { ApiError } from './api-client.js';
import { API_MESSAGES } from './messages.js';

/**
 * What a person reads when a call failed: the API's own message for a request it refused (4xx), the readiness
 * messages as they are, and the screen's fallback for everything else (server faults, network errors).
 */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.status < 500 && error.message ? error.message : fallback;
  if (
    error instanceof Error &&
    (error.message === API_MESSAGES.unableToInitialize || error.message === API_MESSAGES.notInitialized)
  ) {
    return error.message;
  }
  return fallback;
}
