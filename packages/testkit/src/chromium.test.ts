import { describe, expect, it } from 'vitest';
import { chromiumPlan, MISSING_CHROMIUM } from './chromium.js';

const bare = { path: '/usr/bin/chromium', fromEnv: false, executable: false, root: false, aptGet: true };

describe('how npm test gets its browser', () => {
  it('uses a Chromium that is there, wherever CHROMIUM_PATH points', () => {
    expect(chromiumPlan({ ...bare, executable: true })).toEqual({ action: 'use' });
    expect(chromiumPlan({ ...bare, path: '/opt/chromium', fromEnv: true, executable: true })).toEqual({
      action: 'use',
    });
  });

  it("installs Debian's chromium as root with apt-get, and otherwise names the command to run", () => {
    expect(chromiumPlan({ ...bare, root: true })).toEqual({ action: 'install' });
    expect(chromiumPlan(bare)).toEqual({ action: 'stop', message: MISSING_CHROMIUM });
    expect(chromiumPlan({ ...bare, root: true, aptGet: false })).toEqual({ action: 'stop', message: MISSING_CHROMIUM });
    expect(MISSING_CHROMIUM).toContain('sudo apt-get update && sudo apt-get install -y chromium');
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
