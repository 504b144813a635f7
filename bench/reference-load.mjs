// A worker thread that loads the reference route during the sign-in burst (bench/identity.ts): its own event loop, so
// the latencies it measures are the server's answers, not waits behind the scripted browsers' work in the main thread.
// Plain JavaScript: a worker thread does not get the main thread's TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

/** @type {{ url: string; authorization: string; proofs: string[]; connections: number }} */
const { url, authorization, proofs, connections } = workerData;
const options = {
  url,
  connections,
  duration: 600,
  requests: [{ setupRequest: (request) => ({ ...request, headers: { authorization, dpop: proofs.pop() ?? '' } }) }],
};
const run = autocannon(options, (error, raw) => {
  if (error) return parentPort.postMessage({ error: String(error) });
  // In a worker thread autocannon answers its histograms unsummed, as its own workers do: summed here.
  const result = autocannon.aggregateResult([raw], options);
  parentPort.postMessage({
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    proofsLeft: proofs.length,
  });
});
// Tells the main thread once the first answer is in, so the burst starts beside a loaded reference.
run.once('response', () => parentPort.postMessage('answered'));
parentPort.once('message', () => run.stop());
