// First step of `npm test`: the journeys need Debian's Chromium. A bare machine gets it here (as root, through
// apt-get), or the run stops before anything else with one sentence saying what to run.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { CHROMIUM_PATH, chromiumPlan, MISSING_CHROMIUM } from '@ums/testkit/chromium';

const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const facts = () => ({
  path: CHROMIUM_PATH,
  fromEnv: Boolean(process.env['CHROMIUM_PATH'] ?? process.env['CHROME_PATH']),
  executable: executable(CHROMIUM_PATH),
  root: process.getuid?.() === 0,
  aptGet: spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0,
});

const plan = chromiumPlan(facts());
if (plan.action === 'stop') {
  console.error(plan.message);
  process.exit(1);
}
if (plan.action === 'install') {
  console.log("Chromium is missing: installing Debian's chromium package (apt-get, about half a minute).");
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  } catch {
    // Said below in one sentence.
  }
  if (!executable(CHROMIUM_PATH)) {
    console.error(`apt-get could not install chromium. ${MISSING_CHROMIUM}`);
    process.exit(1);
  }
}
