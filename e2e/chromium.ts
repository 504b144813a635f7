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
