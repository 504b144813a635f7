import { afterAll, onTestFinished } from 'vitest';

/**
 * Runs `cleanup` when what opened the resource is over: the test, when called inside one (an `afterAll` registered
 * there never runs, and the server, database or pool would outlive the suite), else the file.
 */
export function whenDone(cleanup: () => unknown): void {
  const run = async () => {
    await cleanup();
  };
  try {
    // Refused outside a test. Asked this way rather than through expect's state, which still names the last test
    // of the previous file when the test files share their modules (isolate: false).
    onTestFinished(run);
  } catch {
    afterAll(run);
  }
}
