/**
 * Asks `probe` every 25 ms until `ok` holds or `timeoutMs` passes, and answers the last value either way (the test
 * then asserts on it, so a timeout fails with what was seen): for effects that land asynchronously, such as mail
 * delivered by the outbox or a revocation heard by a process.
 */
export async function waitFor<T>(probe: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
