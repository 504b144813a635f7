import { afterAll, expect, onTestFinished } from 'vitest';

/**
 * Runs `cleanup` when what opened the resource is over: the test, when called inside one (an `afterAll` registered
 * there never runs, and the server, database or pool would outlive the suite), else the file.
 */
export function whenDone(cleanup: () => unknown): void {
  const run = async () => {
    await cleanup();
  };
  if (expect.getState().currentTestName !== undefined) onTestFinished(run);
  else afterAll(run);
}
