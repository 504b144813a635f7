import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@ums/testkit/chromium';

const port = Number(process.env['E2E_PORT'] ?? 8090);
// Decided once in the runner: its workers inherit the variable, so a journey can reach the server's database.
process.env['E2E_DATA_DIR'] ??= path.join(os.tmpdir(), `ums-e2e-${Date.now()}`);

// Debian's Chromium: never a downloaded browser.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 30_000,
  retries: process.env['CI'] ? 1 : 0,
  workers: 1,
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    baseURL: `http://localhost:${port}`,
    screenshot: 'on',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    // The real product, on a throw-away embedded database.
    command: `node ../scripts/start.mjs`,
    url: `http://localhost:${port}/api/ready`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      PORT: String(port),
      // A fresh embedded database for each run, outside the checkout.
      DATA_DIR: process.env['E2E_DATA_DIR'],
      LOG_LEVEL: 'warn',
      DEMO_ADMIN_PASSWORD: 'Admin-Demo-2026',
      DEMO_MEMBER_PASSWORD: 'Member-Demo-2026',
    },
  },
});
