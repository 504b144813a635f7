import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, journeyChromiumPath } from '@ums/testkit/chromium';
import { LANES, laneDataDir, lanePort } from './lanes.js';

// Decided once in the runner: its workers inherit the variable, so a journey can reach the server's database.
if (!process.env['E2E_DATA_DIR']) {
  process.env['E2E_DATA_DIR'] = path.join(os.tmpdir(), `ums-e2e-${Date.now()}`);
  // Each lane's folder holds a database cluster and a secrets key: the runner removes them as it exits, once it has
  // stopped their servers. A folder named in E2E_DATA_DIR is the caller's, and stays.
  process.on('exit', () => {
    for (let lane = 0; lane < LANES; lane++) rmSync(laneDataDir(lane), { recursive: true, force: true });
  });
}

// Debian's Chromium, in its headless shell where it is installed (decision 054): never a downloaded browser.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // A journey runs 2 to 55 s; two lanes share two cores, so the longest ones need room beyond 30 s (and the few that
  // run past 45 s alone set two minutes of their own).
  timeout: 60_000,
  // An assertion waits up to 10 s: a section that loads three lists takes longer than 5 s while both lanes are busy.
  expect: { timeout: 10_000 },
  retries: process.env['CI'] ? 1 : 0,
  // One worker per lane, each on its own server (lanes.ts); a spec file stays in one worker.
  workers: LANES,
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    // Each lane's journeys go to their own server: fixtures.ts sets the lane's port.
    baseURL: `http://localhost:${lanePort(0)}`,
    // The journeys keep the screens worth reading with shot(); a failure keeps the page it failed on.
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: journeyChromiumPath(),
      args: CHROMIUM_ARGS,
    },
  },
  webServer: Array.from({ length: LANES }, (_, lane) => ({
    // The real product, on a throw-away embedded database.
    command: `node ../scripts/start.mjs`,
    url: `http://localhost:${lanePort(lane)}/api/ready`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      PORT: String(lanePort(lane)),
      // A fresh embedded database for each lane of each run, outside the checkout.
      DATA_DIR: laneDataDir(lane),
      LOG_LEVEL: 'warn',
      DEMO_ADMIN_PASSWORD: 'Admin-Demo-2026',
      DEMO_MEMBER_PASSWORD: 'Member-Demo-2026',
    },
  })),
});
