// Lighthouse (mobile, simulated slow 4G) on the sign-in page and on signed-in new tabs of the account page and the
// admin dashboard, in Debian's Chromium.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { freePort } from '@ums/api/net';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@ums/testkit/chromium';
import { authorizeUrl, pkce } from '@ums/testkit/oidc-browser';
import { median } from './median.js';

export interface LighthouseResult {
  name: string;
  score: number | null;
  fcpMs: number;
  lcpMs: number;
  /**
   * Lighthouse's time to interactive (simulated like the rest; no longer in the score, still computed): when the
   * app's scripts have run and the page answers input. A page that paints before its scripts (issue 32) shows here
   * what its first paint does not: when the app itself is there.
   */
  ttiMs?: number;
  tbtMs: number;
  cls: number;
  lcpElement: string;
  /** Where the audited tab ended: a signed-in page, not the provider's sign-in form. */
  finalUrl: string;
  /** Documents the tab loaded: the page, plus the hidden sign-in frame's when it signs in through the provider. */
  documents: number;
  /** The main thread's long tasks (start and length, ms) and what ran in them: where blocking time comes from. */
  longTasks: string[];
  /** The layout shifts (score, and the element that moved): where CLS comes from. */
  layoutShifts: string[];
  /** How many runs the figures are the median of, and each run's blocking time (ms), in the order they ran. */
  runs: number;
  tbtRunsMs: number[];
  /**
   * Lighthouse's measure of this machine's speed at the time (its benchmark index; higher is faster), median of the
   * runs: the blocking time is the main thread's observed work times the simulated phone's slowdown, so it moves with
   * how fast the machine was while the page ran.
   */
  benchmarkIndex: number;
}

type Person = { email: string; password: string };

/**
 * Each page is audited this many times and the median of each figure is reported, as Lighthouse's documentation
 * advises: on a 2-core machine one run's blocking time moves by tens of milliseconds with whatever else ran.
 */
const RUNS = Number(process.env['BENCH_LIGHTHOUSE_RUNS'] ?? 5);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('BENCH_LIGHTHOUSE_RUNS must be a whole number from 1 up');

/** Lighthouse's simulated time to interactive from its metrics audit, when the run computed one. */
function interactiveMs(details: unknown): number | undefined {
  const value = (details as { items?: { interactive?: number }[] } | undefined)?.items?.[0]?.interactive;
  return typeof value === 'number' && value > 0 ? Math.round(value) : undefined;
}

/** The HTML of the element Lighthouse took as the largest contentful paint, so a reader knows what was timed. */
function lcpElement(details: unknown): string {
  const list = details as { items?: { type?: string; snippet?: string }[] } | undefined;
  const node = list?.items?.find((item) => item.type === 'node');
  return (node?.snippet ?? '(not reported)').replace(/\s+/g, ' ').slice(0, 120);
}

/**
 * A browser of its own. Its profile is the default context, the one Lighthouse's new tab opens in, so that tab
 * shares the storage, cookies and channels of the tabs opened here.
 */
async function launchBrowser() {
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-bench-browser-'));
  const port = await freePort();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [`--remote-debugging-port=${port}`, ...CHROMIUM_ARGS],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    port,
    context,
    page,
    close: async () => {
      await context.close();
      await fs.rm(profile, { recursive: true, force: true });
    },
  };
}

async function browserSignedInAs(base: string, who: Person, landing: string) {
  const browser = await launchBrowser();
  const { page } = browser;
  await page.goto(`${base}${landing}`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${base}${landing}`);
  return browser;
}

/** Empties the browser's HTTP cache, keeping its cookies and storage: the first visit after a release. */
async function emptyCache(context: BrowserContext) {
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
}

async function auditOnce(
  port: number,
  name: string,
  url: string,
  before?: () => Promise<void>,
): Promise<LighthouseResult> {
  await before?.();
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    // Keep the browser's session: a signed-in member opening the page in a new tab.
    disableStorageReset: true,
  });
  const lhr = result!.lhr;
  const score = lhr.categories['performance']?.score ?? null;
  if (score === null) {
    // A run without a score is reported as such, with why (an audit that errored), rather than dropped.
    const errors = Object.values(lhr.audits)
      .filter((entry) => entry.scoreDisplayMode === 'error')
      .map((entry) => `${entry.id}: ${entry.errorMessage ?? 'error'}`);
    console.log(`[bench] ${name}: no performance score (${[lhr.runtimeError?.message, ...errors].join('; ')})`);
  }
  const interactive = interactiveMs(lhr.audits['metrics']?.details);
  const requests = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string }[] } | undefined)
    ?.items;
  return {
    name,
    score,
    fcpMs: Math.round(lhr.audits['first-contentful-paint']?.numericValue ?? 0),
    lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
    ...(interactive === undefined ? {} : { ttiMs: interactive }),
    tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
    cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
    lcpElement: lcpElement(lhr.audits['lcp-breakdown-insight']?.details),
    finalUrl: lhr.finalDisplayedUrl,
    documents: (requests ?? []).filter((r) => r.resourceType === 'Document').length,
    longTasks: (
      (lhr.audits['long-tasks']?.details as { items?: { url?: string; startTime?: number; duration?: number }[] })
        ?.items ?? []
    ).map((task) => `${Math.round(task.startTime ?? 0)}+${Math.round(task.duration ?? 0)} ${task.url ?? ''}`),
    layoutShifts: (
      (lhr.audits['layout-shifts']?.details as { items?: { score?: number; node?: { snippet?: string } }[] })?.items ??
      []
    ).map(
      (shift) => `${(shift.score ?? 0).toFixed(4)} ${(shift.node?.snippet ?? '').replace(/\s+/g, ' ').slice(0, 160)}`,
    ),
    runs: 1,
    tbtRunsMs: [],
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
  };
}

/**
 * The page audited RUNS times: each figure is the median of its runs; the element, final address and long tasks
 * are those of the run whose blocking time is the median (or nearest to it).
 */
async function audit(port: number, name: string, url: string, before?: () => Promise<void>): Promise<LighthouseResult> {
  const runs: LighthouseResult[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await auditOnce(port, name, url, before));
  const tbt = median(runs.map((run) => run.tbtMs));
  const measured = runs.flatMap((run) => (run.ttiMs === undefined ? [] : [run.ttiMs]));
  const typical = runs.reduce((best, run) => (Math.abs(run.tbtMs - tbt) < Math.abs(best.tbtMs - tbt) ? run : best));
  // A run without a score (logged with its reason) leaves the others' median; only no score at all is n/a.
  const scores = runs.flatMap((run) => (run.score === null ? [] : [run.score]));
  return {
    ...typical,
    score: scores.length > 0 ? median(scores) : null,
    fcpMs: Math.round(median(runs.map((run) => run.fcpMs))),
    lcpMs: Math.round(median(runs.map((run) => run.lcpMs))),
    // Runs that did not report it are left out; none reporting it is not measured.
    ...(measured.length > 0 ? { ttiMs: Math.round(median(measured)) } : {}),
    tbtMs: Math.round(tbt),
    cls: Number(median(runs.map((run) => run.cls)).toFixed(3)),
    // Every run must have stayed on the page it opened (none ended on the provider's sign-in form).
    finalUrl: runs.find((run) => run.finalUrl !== typical.finalUrl)?.finalUrl ?? typical.finalUrl,
    documents: Math.max(...runs.map((run) => run.documents)),
    runs: runs.length,
    tbtRunsMs: runs.map((run) => run.tbtMs),
    benchmarkIndex: Math.round(median(runs.map((run) => run.benchmarkIndex))),
  };
}

/**
 * The account page as the member and the dashboard as the administrator, each in a new tab of a browser that
 * has signed in: once with the signed-in tab still open (the new tab asks it), once with every tab closed (the
 * provider's session cookie answers a hidden frame). The sign-in page is audited in the same run for comparison.
 */
export async function lighthouseAudits(
  base: string,
  people: { member: Person; admin: Person },
  /** Only the audits whose names match (BENCH_LIGHTHOUSE); the rest are skipped. */
  only: RegExp | null = null,
) {
  const results: LighthouseResult[] = [];
  const run = async (port: number, name: string, url: string, before?: () => Promise<void>) => {
    if (!only || only.test(name)) results.push(await audit(port, name, url, before));
  };
  const signedIn = async (who: Person, landing: string, name: string) => {
    const browser = await browserSignedInAs(base, who, landing);
    try {
      await run(browser.port, `${name} (new tab, signed-in tab open)`, `${base}${landing}`);
      // The same after a release: the browser's HTTP cache emptied before each run, its session kept (issue 32).
      await run(browser.port, `${name} (new tab, signed-in tab open, empty cache)`, `${base}${landing}`, () =>
        emptyCache(browser.context),
      );
      // A blank tab keeps the browser running once the signed-in tab is closed.
      const blank: Page = await browser.context.newPage();
      await browser.page.close();
      await run(browser.port, `${name} (new tab, no other tab open)`, `${base}${landing}`);
      await blank.close();
    } finally {
      await browser.close();
    }
  };
  if (!only || only.test('Sign-in page')) {
    const first = await launchBrowser();
    try {
      await run(first.port, 'Sign-in page', authorizeUrl(base, pkce().challenge));
    } finally {
      await first.close();
    }
  }
  await signedIn(people.member, '/', 'Account page');
  await signedIn(people.admin, '/admin', 'Admin dashboard');
  return results;
}
