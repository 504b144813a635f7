import { describe, expect, it } from 'vitest';
import {
  chromiumFacts,
  chromiumPlan,
  DEBIAN_CHROMIUM,
  DEBIAN_HEADLESS_SHELL,
  journeyChromiumPath,
  MISSING_CHROMIUM,
  WITHOUT_HEADLESS_SHELL,
} from './chromium.js';

const bare = {
  path: '/usr/bin/chromium',
  fromEnv: false,
  executable: false,
  headlessShell: false,
  shellUnavailable: false,
  root: false,
  aptGet: true,
};
const installed = { ...bare, executable: true, headlessShell: true };

describe('how npm test gets its browsers', () => {
  it('uses the browsers there are, and a Chromium wherever CHROMIUM_PATH points', () => {
    expect(chromiumPlan(installed)).toEqual({ action: 'use' });
    expect(chromiumPlan({ ...bare, path: '/opt/chromium', fromEnv: true, executable: true })).toEqual({
      action: 'use',
    });
  });

  it("installs as root with apt-get what Debian's packages lack, and only that", () => {
    expect(chromiumPlan({ ...bare, root: true })).toEqual({
      action: 'install',
      packages: ['chromium', 'chromium-headless-shell'],
    });
    expect(chromiumPlan({ ...installed, headlessShell: false, root: true })).toEqual({
      action: 'install',
      packages: ['chromium-headless-shell'],
    });
  });

  it('without Chromium and the right to install it, names the command to run and stops', () => {
    expect(chromiumPlan(bare)).toEqual({ action: 'stop', message: MISSING_CHROMIUM });
    expect(chromiumPlan({ ...bare, root: true, aptGet: false })).toEqual({ action: 'stop', message: MISSING_CHROMIUM });
    expect(MISSING_CHROMIUM).toContain(
      'sudo apt-get update && sudo apt-get install -y chromium chromium-headless-shell',
    );
  });

  it('without only the headless shell and the right to install it, runs the journeys in the full Chromium and says how to make them faster', () => {
    const withoutShell = { ...installed, headlessShell: false };
    expect(chromiumPlan(withoutShell)).toEqual({ action: 'use', note: WITHOUT_HEADLESS_SHELL });
    expect(chromiumPlan({ ...withoutShell, root: true, aptGet: false })).toEqual({
      action: 'use',
      note: WITHOUT_HEADLESS_SHELL,
    });
    expect(WITHOUT_HEADLESS_SHELL).toContain('sudo apt-get install -y chromium-headless-shell');
  });

  it('does not try apt-get for the shell again once it could not install it, but still installs a missing Chromium', () => {
    const triedBefore = { ...bare, shellUnavailable: true, root: true };
    expect(chromiumPlan({ ...triedBefore, executable: true })).toEqual({ action: 'use', note: WITHOUT_HEADLESS_SHELL });
    expect(chromiumPlan(triedBefore)).toEqual({ action: 'install', packages: ['chromium'] });
  });

  it('never installs over a CHROMIUM_PATH that names nothing runnable: it says so', () => {
    const plan = chromiumPlan({ ...bare, path: '/opt/nothing', fromEnv: true, root: true });
    expect(plan).toEqual({
      action: 'stop',
      message:
        "CHROMIUM_PATH names /opt/nothing, which is not an executable browser: point it at Chromium, or unset it to use Debian's /usr/bin/chromium.",
    });
  });
});

describe('the browser the journeys run in', () => {
  const only =
    (...present: string[]) =>
    (file: string) =>
      present.includes(file);

  it("is Debian's headless shell where it is installed, else the full Chromium", () => {
    expect(journeyChromiumPath(only(DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL), {})).toBe(
      '/usr/lib/chromium/chromium-headless-shell',
    );
    expect(journeyChromiumPath(only(DEBIAN_CHROMIUM), {})).toBe('/usr/bin/chromium');
  });

  it('is the one CHROMIUM_PATH or CHROME_PATH names, even beside the headless shell; an empty one names none', () => {
    const both = only(DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL);
    expect(journeyChromiumPath(both, { CHROMIUM_PATH: '/opt/chromium' })).toBe('/opt/chromium');
    expect(journeyChromiumPath(both, { CHROME_PATH: '/opt/chrome' })).toBe('/opt/chrome');
    expect(journeyChromiumPath(both, { CHROMIUM_PATH: '', CHROME_PATH: '/opt/chrome' })).toBe('/opt/chrome');
    expect(journeyChromiumPath(both, { CHROMIUM_PATH: '' })).toBe('/usr/lib/chromium/chromium-headless-shell');
  });
});

describe('what decides it', () => {
  const probe = { executable: () => true, shellUnavailable: false, root: false, aptGet: true };

  it('takes an empty CHROMIUM_PATH for no name at all, and CHROME_PATH after it', () => {
    expect(chromiumFacts({ CHROMIUM_PATH: '' }, [], probe)).toMatchObject({
      path: '/usr/bin/chromium',
      fromEnv: false,
    });
    expect(chromiumFacts({ CHROMIUM_PATH: '', CHROME_PATH: '/opt/chrome' }, [], probe)).toMatchObject({
      path: '/opt/chrome',
      fromEnv: true,
    });
  });

  it('wants no headless shell for the benchmark, which measures in the full browser', () => {
    const noShell = { ...probe, executable: (file: string) => file !== DEBIAN_HEADLESS_SHELL };
    expect(chromiumFacts({}, [], noShell).headlessShell).toBe(false);
    expect(chromiumFacts({}, ['--full-browser-only'], noShell).headlessShell).toBe(true);
  });
});
