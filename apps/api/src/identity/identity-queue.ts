import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * Identity requests (everything under the provider's path: its endpoints and our sign-in pages) handled at once by
 * one process. Enough to keep both cores busy while some of them wait for the database or a password hash; few
 * enough that a burst of sign-ins cannot put hundreds of requests' work into the event loop at once, where every API
 * request would wait behind it (issue 39: the reference route's p99 during 200 sign-ins at once).
 */
export const IDENTITY_REQUESTS_AT_ONCE = 16;

/**
 * Requests that may wait for a turn; past this many, one is answered 503 at once rather than held (as Keycloak's
 * `http-max-queued-requests` does), so a flood cannot hold sockets and memory without end.
 */
export const IDENTITY_REQUESTS_QUEUED = 1000;

/**
 * Requests from one address that may wait at once (an IPv4 address, or an IPv6 /64, as the sign-in limits count them);
 * past this many, that address's next one is answered 503 at once. One address cannot fill the queue's room with its
 * own requests and keep every other member's sign-in waiting behind them, or out.
 */
export const IDENTITY_REQUESTS_QUEUED_PER_ADDRESS = 100;

/**
 * The longest a request holds its turn: past it the turn is handed on while the request goes on. A sign-in's request
 * takes milliseconds; one that takes this long is a client sending slowly (or not at all) and must not keep sign-ins
 * waiting behind it: sixteen such clients would otherwise hold every turn.
 */
export const IDENTITY_TURN_MS = 5000;

/**
 * Of this many turns handed to waiting requests, at least one goes to a request that starts a sign-in when one waits:
 * requests that claim to continue one (any address under the provider's path but the authorization endpoint's) go
 * first, and a stream of them must not keep new sign-ins out for good.
 */
export const STARTS_EVERY = 4;

interface Waiting {
  go: () => void;
  /** The client's address, whose count of waiting requests this one is in while it waits (none: not counted). */
  address: string | null;
  /** Waiting; given its turn; or its client went away while it waited (skipped when its turn comes). */
  state: 'waiting' | 'started' | 'gone';
}

/**
 * An `onRequest` hook that lets `atOnce` identity requests (`isIdentity`) through at a time: a request holds its turn
 * until its answer has been sent or its connection closed, or `turnMs` at most. Waiting requests of sign-ins already
 * under way (the sign-in page, the password, the token) go before those that start one (`startsFlow`), each kind in
 * the order it came, but one turn in `STARTS_EVERY` goes to a start: in a burst, the sign-ins begun first finish first
 * instead of all finishing together at the end. A request whose client leaves while it waits gives up its place. Past
 * `queued` waiting, or `queuedPerAddress` waiting from the request's address (`addressOf`, null for one that is not
 * counted), `busy` answers at once.
 */
export function identityQueue({
  isIdentity,
  startsFlow,
  addressOf,
  busy,
  atOnce = IDENTITY_REQUESTS_AT_ONCE,
  queued = IDENTITY_REQUESTS_QUEUED,
  queuedPerAddress = IDENTITY_REQUESTS_QUEUED_PER_ADDRESS,
  turnMs = IDENTITY_TURN_MS,
}: {
  isIdentity: (url: string) => boolean;
  startsFlow: (url: string) => boolean;
  addressOf: (request: FastifyRequest) => string | null;
  busy: (request: FastifyRequest, reply: FastifyReply) => void;
  atOnce?: number;
  queued?: number;
  queuedPerAddress?: number;
  turnMs?: number;
}) {
  let running = 0;
  let waiting = 0;
  const waitingFrom = new Map<string, number>();
  /** One request of `entry`'s address waits no more (it got its turn, or its client left). */
  const stopWaiting = (entry: Waiting) => {
    waiting--;
    if (entry.address === null) return;
    const left = (waitingFrom.get(entry.address) ?? 1) - 1;
    if (left > 0) waitingFrom.set(entry.address, left);
    else waitingFrom.delete(entry.address);
  };
  let handedOut = 0;
  const underWay: Waiting[] = [];
  const starting: Waiting[] = [];
  const next = () => {
    const startsDue = handedOut % STARTS_EVERY === STARTS_EVERY - 1;
    const [first, then] = startsDue ? [starting, underWay] : [underWay, starting];
    return first.shift() ?? then.shift();
  };
  const release = () => {
    for (let entry = next(); entry; entry = next()) {
      if (entry.state === 'gone') continue;
      entry.state = 'started';
      stopWaiting(entry);
      handedOut++;
      return entry.go();
    }
    running--;
  };
  return {
    hook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
      const url = request.raw.url ?? '';
      if (!isIdentity(url)) return done();
      const go = () => {
        let held = true;
        const handOn = () => {
          if (!held) return;
          held = false;
          clearTimeout(timer);
          release();
        };
        const timer = setTimeout(handOn, turnMs);
        timer.unref();
        // 'close' comes once the answer is sent, and when the client goes away before it is.
        if (reply.raw.destroyed) handOn();
        else reply.raw.once('close', handOn);
        done();
      };
      if (running < atOnce) {
        running++;
        return go();
      }
      const address = addressOf(request);
      const fromAddress = address === null ? 0 : (waitingFrom.get(address) ?? 0);
      if (waiting >= queued || fromAddress >= queuedPerAddress) return busy(request, reply);
      const entry: Waiting = { go, address, state: 'waiting' };
      waiting++;
      if (address !== null) waitingFrom.set(address, fromAddress + 1);
      reply.raw.once('close', () => {
        if (entry.state !== 'waiting') return;
        entry.state = 'gone';
        stopWaiting(entry);
      });
      (startsFlow(url) ? starting : underWay).push(entry);
    },
    /** Requests waiting for a turn now. */
    get waiting() {
      return waiting;
    },
  };
}
