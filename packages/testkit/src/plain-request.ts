import http from 'node:http';

/** Kept-alive connections, as a browser keeps them to a site it is using. */
const agent = new http.Agent({ keepAlive: true });

/** Statuses whose answers have no body (a `Response` refuses one for them). */
const NO_BODY = new Set([204, 205, 304]);

/**
 * One plain-HTTP request made with node:http, answered as a `Response` as `fetch` answers one with
 * `redirect: 'manual'` (the scripted browsers follow their redirects themselves). The scripted browsers send their
 * requests by the thousand on the cores the server uses in the benchmark: with fetch (undici) they spent 4.7 ms of CPU
 * per sign-in, with this 3.2 ms (decision 041). It sends only the headers given (fetch adds its own `accept`,
 * `user-agent` and the like), with a form's content type for a `URLSearchParams` body as fetch does. Anything but a
 * text or form body and plain headers to an http: address goes through fetch.
 */
export function plainRequest(url: string, init: RequestInit = {}): Promise<Response> {
  const { method = 'GET', headers = {}, body, ...rest } = init;
  const text = body instanceof URLSearchParams ? body.toString() : body;
  const plain =
    url.startsWith('http:') &&
    Object.keys(rest).length === 0 &&
    (text === undefined || text === null || typeof text === 'string') &&
    !(headers instanceof Headers) &&
    !Array.isArray(headers);
  if (!plain) return fetch(url, { ...init, redirect: 'manual' });
  const sent: Record<string, string> = { ...(headers as Record<string, string>) };
  if (body instanceof URLSearchParams && !Object.keys(sent).some((name) => name.toLowerCase() === 'content-type')) {
    sent['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
  }
  if (typeof text === 'string') sent['content-length'] = String(Buffer.byteLength(text));
  return sendOnce(url, method, sent, text, true);
}

/**
 * Sends the request once. A kept-alive connection the server closed as this request went out on it (its idle time
 * over, on the server's clock) ends in a reset before any answer: then the request goes once more on a new
 * connection of its own, as browsers send a request again on a reused connection that closed unanswered and as
 * Node's documentation does with `reusedSocket`. A server closes an idle connection only when no request is in
 * progress on it, so the first one was never taken. A reset on a new connection is the server's answer, and is thrown.
 */
function sendOnce(
  url: string,
  method: string,
  sent: Record<string, string>,
  text: string | null | undefined,
  kept: boolean,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: sent, agent: kept ? agent : false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const answered = new Headers();
        for (let i = 0; i < response.rawHeaders.length; i += 2) {
          answered.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
        }
        const status = response.statusCode ?? 0;
        resolve(
          new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), {
            status,
            statusText: response.statusMessage ?? '',
            headers: answered,
          }),
        );
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (kept && request.reusedSocket && error.code === 'ECONNRESET') {
        sendOnce(url, method, sent, text, false).then(resolve, reject);
      } else reject(error);
    });
    request.end(typeof text === 'string' ? text : undefined);
  });
}
