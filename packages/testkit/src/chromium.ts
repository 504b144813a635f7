// Debian's Chromium, never a downloaded browser: shared by the journeys and the benchmark's Lighthouse runs.
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? process.env['CHROME_PATH'] ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What decides how `npm test` gets its browser. */
export interface ChromiumFacts {
  path: string;
  /** The path came from CHROMIUM_PATH or CHROME_PATH, not the default. */
  fromEnv: boolean;
  executable: boolean;
  root: boolean;
  aptGet: boolean;
}

export type ChromiumPlan = { action: 'use' } | { action: 'install' } | { action: 'stop'; message: string };

export const MISSING_CHROMIUM =
  "The browser journeys need Debian's Chromium, which is not installed: run `sudo apt-get update && sudo apt-get install -y chromium` (or set CHROMIUM_PATH to a Chromium), then run npm test again.";

/** Use the browser there is; as root with apt-get, install Debian's; otherwise say in one sentence what to run. */
export function chromiumPlan(facts: ChromiumFacts): ChromiumPlan {
  if (facts.executable) return { action: 'use' };
  if (facts.fromEnv) {
    return {
      action: 'stop',
      message: `CHROMIUM_PATH names ${facts.path}, which is not an executable browser: point it at Chromium, or unset it to use Debian's /usr/bin/chromium.`,
    };
  }
  if (facts.root && facts.aptGet) return { action: 'install' };
  return { action: 'stop', message: MISSING_CHROMIUM };
}
