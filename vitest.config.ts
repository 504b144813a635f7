import os from 'node:os';
import { defineConfig, type TestProjectConfiguration } from 'vitest/config';

const api = (name: string, database: 'embedded' | 'external'): TestProjectConfiguration => ({
  test: {
    name,
    root: './apps/api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The lifecycle test is about the embedded server itself.
    exclude: database === 'external' ? ['test/server-lifecycle.test.ts'] : [],
    globalSetup: ['./test/global-setup.ts'],
    env: { UMS_TEST_DATABASE: database },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The files of a worker share their modules (decision 028): importing the app again for every file cost more
    // than a third of the run. Each file still makes its own database, apps and servers.
    isolate: false,
  },
});

export default defineConfig({
  test: {
    // Two test files at a time even on two cores (vitest's default there is one): most API files spend their time
    // waiting on PostgreSQL, server processes and browsers, not on this process. Measured on a 2-core machine: the
    // whole run took 899 s one file at a time and 546 s two at a time.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'contracts',
          root: './packages/contracts',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // A screen test waits for several answers in turn (each up to 3 s, see setup.ts) on a busy machine.
          testTimeout: 15_000,
          // Shared modules (decision 028): React and Fluent are imported once per worker, not once per file; setup.ts
          // still runs for every file and the DOM is emptied after every test.
          isolate: false,
        },
      },
      {
        test: {
          name: 'tools',
          root: '.',
          include: ['e2e/**/*.test.ts', 'scripts/**/*.test.ts', 'packages/testkit/**/*.test.ts'],
        },
      },
      api('api', 'embedded'),
      // The same suite against another PostgreSQL server when TEST_DATABASE_URL names one.
      ...(process.env['TEST_DATABASE_URL'] ? [api('api-external', 'external')] : []),
    ],
  },
});
