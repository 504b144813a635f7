// First step of `npm test`: the journeys need Debian's Chromium and, to run faster, its headless shell (decision 054).
// A bare machine gets them here (as root, through apt-get), or the run stops before anything else with one sentence
// saying what to run.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  CHROMIUM_PATH,
  chromiumPlan,
  DEBIAN_HEADLESS_SHELL,
  isExecutable as executable,
  MISSING_CHROMIUM,
  WITHOUT_HEADLESS_SHELL,
} from '@ums/testkit/chromium';

const facts = () => {
  const fromEnv = Boolean(process.env['CHROMIUM_PATH'] ?? process.env['CHROME_PATH']);
  return {
    path: CHROMIUM_PATH,
    fromEnv,
    executable: executable(CHROMIUM_PATH),
    headlessShell: !fromEnv && executable(DEBIAN_HEADLESS_SHELL),
    root: process.getuid?.() === 0,
    aptGet: spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0,
  };
};

const plan = chromiumPlan(facts());
if (plan.action === 'stop') {
  console.error(plan.message);
  process.exit(1);
}
if (plan.action === 'use' && plan.note) console.log(plan.note);
if (plan.action === 'install') {
  console.log(`Installing Debian's ${plan.packages.join(' and ')} (apt-get, about half a minute).`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (...args: string[]) => {
    try {
      execFileSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    } catch {
      // Said below in one sentence.
    }
  };
  run('update', '-qq');
  // One package at a time: a mirror without the headless shell still gives the browser.
  for (const name of plan.packages) run('install', '-y', '-qq', name);
  if (!executable(CHROMIUM_PATH)) {
    console.error(`apt-get could not install chromium. ${MISSING_CHROMIUM}`);
    process.exit(1);
  }
  if (!executable(DEBIAN_HEADLESS_SHELL))
    console.log(`apt-get could not install its headless shell. ${WITHOUT_HEADLESS_SHELL}`);
}
