// First step of `npm test`: the journeys need Debian's Chromium and, to run faster, its headless shell (decision 054).
// A bare machine gets them here (as root, through apt-get), or the run stops before anything else with one sentence
// saying what to run. `--full-browser-only` (the benchmark, which measures pages in the full browser) wants no shell.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  chromiumFacts,
  chromiumPlan,
  DEBIAN_HEADLESS_SHELL,
  isExecutable as executable,
  MISSING_CHROMIUM,
  WITHOUT_HEADLESS_SHELL,
} from '@ums/testkit/chromium';

/** Left when apt-get could not install the shell, so that later runs do not wait on it again; a clean install clears it. */
const SHELL_UNAVAILABLE = path.resolve(import.meta.dirname, '../node_modules/.cache/ums/headless-shell-unavailable');

const facts = chromiumFacts(process.env, process.argv, {
  executable,
  shellUnavailable: existsSync(SHELL_UNAVAILABLE),
  root: process.getuid?.() === 0,
  aptGet: spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0,
});
const plan = chromiumPlan(facts);
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
  if (!executable(facts.path)) {
    console.error(`apt-get could not install chromium. ${MISSING_CHROMIUM}`);
    process.exit(1);
  }
  if (!facts.headlessShell && !executable(DEBIAN_HEADLESS_SHELL)) {
    if (plan.packages.includes('chromium-headless-shell')) {
      mkdirSync(path.dirname(SHELL_UNAVAILABLE), { recursive: true });
      writeFileSync(SHELL_UNAVAILABLE, `${new Date().toISOString()}\n`);
      console.log(`apt-get could not install its headless shell. ${WITHOUT_HEADLESS_SHELL}`);
    } else console.log(WITHOUT_HEADLESS_SHELL);
  }
}
