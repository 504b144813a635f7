import { envelopeFirst, envelopeList } from '@ums/contracts/envelope';
import { API_MESSAGES } from './messages.js';
import type { RequestProof } from './request-proof.js';

/** A non-OK answer or an error envelope: carries the status and the message a person may read. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's id of the request (X-Request-Id), for support: "Reference: ..." under the banner. */
    readonly requestId: string | null = null,
    /** The answer's body as read (an error envelope), for a screen that shows more of it than the message. */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * A sensitive action refused for want of a recent sign-in (RFC 9470): the member is already on the way to sign in
 * again, so a screen keeps what was typed for the action instead of showing a failure.
 */
export class StepUpRequiredError extends ApiError {
  constructor(
    message: string,
    requestId: string | null,
    /** The most seconds the new sign-in may be old. */
    readonly maxAge: number,
  ) {
    super(401, message, requestId);
    this.name = 'StepUpRequiredError';
  }
}

type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Every message in an envelope's `errors` (or one field's entry of it), in order. */
export function flattenErrors(errors: unknown): string[] {
  if (typeof errors === 'string') return [errors];
  if (Array.isArray(errors)) return errors.flatMap(flattenErrors);
  if (isObject(errors)) return Object.values(errors).flatMap(flattenErrors);
  return [];
}

/** The message for a non-OK answer, in the order of SPEC section 8. */
export function errorMessage(status: number, body: unknown, rawText: string): string {
  if (isObject(body)) {
    if ('isError' in body && 'message' in body) return text(body['message']) || API_MESSAGES.requestFailed;
    if (text(body['message'])) return text(body['message']);
    const validation = flattenErrors(body['errors']);
    if (validation.length > 0) return validation.join('. ');
    if (text(body['title']))
      return text(body['detail']) ? `${text(body['title'])}: ${text(body['detail'])}` : text(body['title']);
  }
  if (body === undefined && rawText.trim()) return rawText.trim();
  return API_MESSAGES.httpError(status);
}

export interface ApiClientOptions {
  baseUrl: string;
  /** The current access token; the client is unusable without one. */
  getToken: () => string | null | undefined;
  /**
   * Called when the API refuses the token (401: expired, or revoked on the server). Resolves to a renewed token to
   * retry the call once with, or null when the session is over (the caller then sends the member to sign in).
   */
  onUnauthorized?: () => Promise<string | null>;
  /**
   * Called when a sensitive action needs a more recent sign-in (RFC 9470: 401 with `insufficient_user_authentication`
   * and `max_age`): the caller signs the member in again and brings them back. A renewed token would not do.
   */
  onStepUp?: (maxAge: number) => void;
  /** Proves each request with the browser's DPoP key, for tokens bound to it (sent with the DPoP scheme). */
  proof?: RequestProof | null;
  fetch?: typeof fetch;
}

/**
 * The `max_age` of a step-up challenge (RFC 9470: `error="insufficient_user_authentication"`), in seconds; null when
 * the refusal is of another kind.
 */
export function stepUpMaxAge(challenge: string | null): number | null {
  if (!challenge || !/error="insufficient_user_authentication"/.test(challenge)) return null;
  const maxAge = /max_age=(\d+)/.exec(challenge);
  return maxAge ? Number(maxAge[1]) : 0;
}

/** The address a proof names: absolute, without the query (RFC 9449 compares scheme, host and path). */
export function proofAddress(url: string, base: string = globalThis.location?.href ?? 'http://localhost/'): string {
  const absolute = new URL(url, base);
  return `${absolute.origin}${absolute.pathname}`;
}

export function createApiClient({
  baseUrl,
  getToken,
  onUnauthorized,
  onStepUp,
  proof,
  fetch: fetchImpl = fetch,
}: ApiClientOptions) {
  /** Sends a call with the current token (and its proof), renewing the token once when the API refuses it. */
  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    const token = getToken();
    if (!token) throw new Error(API_MESSAGES.notInitialized);
    const url = `${baseUrl}${path}`;
    const send = async (accessToken: string) => {
      const signed = proof ? await proof(method, proofAddress(url), accessToken) : undefined;
      return fetchImpl(url, {
        method,
        headers: signed
          ? { Authorization: `DPoP ${accessToken}`, DPoP: signed, 'Content-Type': 'application/json' }
          : { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    };
    let response = await send(token);
    if (response.status !== 401) return response;
    const stepUp = stepUpMaxAge(response.headers.get('www-authenticate'));
    if (stepUp !== null) {
      onStepUp?.(stepUp);
      const { raw, parsed } = await read(response);
      throw new StepUpRequiredError(
        errorMessage(response.status, parsed, raw),
        response.headers.get('x-request-id'),
        stepUp,
      );
    }
    if (onUnauthorized) {
      const renewed = await onUnauthorized();
      if (renewed) response = await send(renewed);
    }
    return response;
  }

  /** An answer's body as text and, when it is JSON, parsed. */
  async function read(response: Response) {
    const raw = await response.text();
    try {
      return { raw, parsed: raw ? (JSON.parse(raw) as unknown) : undefined };
    } catch {
      return { raw, parsed: undefined };
    }
  }

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await call(method, path, body);
    const { raw, parsed } = await read(response);
    const requestId = response.headers.get('x-request-id');
    if (!response.ok)
      throw new ApiError(response.status, errorMessage(response.status, parsed, raw), requestId, parsed);
    if (isObject(parsed) && parsed['isError'] === true) {
      throw new ApiError(response.status, text(parsed['message']) || API_MESSAGES.requestFailed, requestId);
    }
    // DELETE answers may have no JSON body.
    return (parsed === undefined ? null : parsed) as T;
  }
  return {
    get: <T>(path: string) => request<T>('GET', path),
    /** A file the API answers (a PDF, an export): its bytes, or the envelope's error. */
    download: async (path: string): Promise<Blob> => {
      const response = await call('GET', path);
      if (response.ok) return response.blob();
      const { raw, parsed } = await read(response);
      throw new ApiError(
        response.status,
        errorMessage(response.status, parsed, raw),
        response.headers.get('x-request-id'),
      );
    },
    post: <T>(path: string, body: unknown) => request<T>('POST', path, body),
    put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
    patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
    delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, body),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The data array of an envelope; an unexpected shape gives an empty list and a console warning. */
export function listOf<T>(answer: unknown): T[] {
  if (!isObject(answer) || !Array.isArray(answer['data'])) {
    console.warn('Unexpected API response shape', answer);
    return [];
  }
  return envelopeList<T>(answer);
}

/** The first element of an envelope's data, or null. */
export { envelopeFirst as firstOf };

export const READINESS_TRIES = 50;
export const READINESS_INTERVAL_MS = 100;

/** Waits up to 50 x 100 ms for the client to become usable (authentication finished). */
export async function waitForApiClient(current: () => ApiClient | null): Promise<ApiClient> {
  for (let attempt = 0; attempt < READINESS_TRIES; attempt++) {
    const client = current();
    if (client) return client;
    await new Promise((resolve) => setTimeout(resolve, READINESS_INTERVAL_MS));
  }
  throw new Error(API_MESSAGES.unableToInitialize);
}
