// Debian's Chromium, never a downloaded browser. Its full browser measures pages (Lighthouse, the budgets' page
// loads); the journeys run in its headless shell when it is there (decision 054).
import { accessSync, constants } from 'node:fs';

type Env = Record<string, string | undefined>;
/** The browser a person names: CHROMIUM_PATH, or CHROME_PATH as Lighthouse's tools call it. */
const named = (env: Env) => env['CHROMIUM_PATH'] || env['CHROME_PATH'] || undefined;

/** Debian's `chromium` package: the browser as a person runs it. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/**
 * Debian's `chromium-headless-shell` package: the same Chromium's headless shell (what Playwright itself runs
 * headless), which ran 25 journeys on 38% less of the machine's CPU. This is the binary its /usr/bin wrapper
 * runs, started directly so that no shell stands between Playwright and the browser.
 */
export const DEBIAN_HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/** The file is there and this user may run it. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The browser that measures pages: CHROMIUM_PATH (or CHROME_PATH) when set, else Debian's Chromium. */
export const CHROMIUM_PATH = named(process.env) ?? DEBIAN_CHROMIUM;

/**
 * The browser the journeys run in: CHROMIUM_PATH (or CHROME_PATH) when set; else Debian's headless shell, or its full
 * Chromium on a machine without the shell.
 */
export function journeyChromiumPath(executable = isExecutable, env: Env = process.env): string {
  const chosen = named(env);
  if (chosen) return chosen;
  return executable(DEBIAN_HEADLESS_SHELL) ? DEBIAN_HEADLESS_SHELL : DEBIAN_CHROMIUM;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How `chromiumFacts` looks at this machine. */
export interface ChromiumProbe {
  executable: (file: string) => boolean;
  /** An earlier run's apt-get could not install the shell: not tried again until the next clean install. */
  shellUnavailable: boolean;
  root: boolean;
  aptGet: boolean;
}

/** What decides how `npm test` gets its browsers. */
export interface ChromiumFacts extends Omit<ChromiumProbe, 'executable'> {
  path: string;
  /** The path came from CHROMIUM_PATH or CHROME_PATH, not the default. */
  fromEnv: boolean;
  executable: boolean;
  /**
   * Debian's headless shell is installed, or not wanted: CHROMIUM_PATH names the browser, or the run measures pages
   * only (the benchmark).
   */
  headlessShell: boolean;
}

/**
 * What `chromiumPlan` decides from: the browser named in `env` (an empty name names none), and the headless shell,
 * which `--full-browser-only` in `argv` (the benchmark) does not want.
 */
export function chromiumFacts(env: Env, argv: readonly string[], probe: ChromiumProbe): ChromiumFacts {
  const chosen = named(env);
  const path = chosen ?? DEBIAN_CHROMIUM;
  const { executable, ...machine } = probe;
  return {
    ...machine,
    path,
    fromEnv: chosen !== undefined,
    executable: executable(path),
    headlessShell: chosen !== undefined || argv.includes('--full-browser-only') || executable(DEBIAN_HEADLESS_SHELL),
  };
}

export type ChromiumPlan =
  { action: 'use'; note?: string } | { action: 'install'; packages: string[] } | { action: 'stop'; message: string };

export const MISSING_CHROMIUM =
  "The browser journeys need Debian's Chromium, which is not installed: run `sudo apt-get update && sudo apt-get install -y chromium chromium-headless-shell` (or set CHROMIUM_PATH to a Chromium), then run npm test again.";

export const WITHOUT_HEADLESS_SHELL =
  "The journeys run in Debian's full Chromium: `sudo apt-get install -y chromium-headless-shell` gives them its headless shell, which runs them in about 30% less time.";

/**
 * Use the browsers there are; as root with apt-get, install what Debian's packages can add; otherwise say in one
 * sentence what to run. Without the headless shell the journeys still run, in the full Chromium.
 */
export function chromiumPlan(facts: ChromiumFacts): ChromiumPlan {
  if (facts.fromEnv) {
    if (facts.executable) return { action: 'use' };
    return {
      action: 'stop',
      message: `CHROMIUM_PATH names ${facts.path}, which is not an executable browser: point it at Chromium, or unset it to use Debian's ${DEBIAN_CHROMIUM}.`,
    };
  }
  const shellWanted = !facts.headlessShell && !facts.shellUnavailable;
  const missing = [...(facts.executable ? [] : ['chromium']), ...(shellWanted ? ['chromium-headless-shell'] : [])];
  if (missing.length > 0 && facts.root && facts.aptGet) return { action: 'install', packages: missing };
  if (!facts.executable) return { action: 'stop', message: MISSING_CHROMIUM };
  return facts.headlessShell ? { action: 'use' } : { action: 'use', note: WITHOUT_HEADLESS_SHELL };
}
