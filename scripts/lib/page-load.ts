import { gzipSync } from 'node:zlib';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@ums/testkit/chromium';
import { prepareServer } from '@ums/testkit/server-process';
import { chromium, type Page } from 'playwright-core';

/** One script the page fetched from its own origin, and its size as gzip level 9 would send it. */
export interface LoadedScript {
  path: string;
  gzipBytes: number;
}

export interface PageLoad {
  scripts: LoadedScript[];
  gzipBytes: number;
}

const ACCOUNTS = {
  member: { email: 'member@example.com', password: 'Budget-Member-2026' },
  admin: { email: 'admin@example.com', password: 'Budget-Admin-2026' },
} as const;

async function signIn(page: Page, base: string, path: string, who: keyof typeof ACCOUNTS) {
  await page.goto(`${base}${path}`);
  await page.getByLabel('Email').fill(ACCOUNTS[who].email);
  await page.getByLabel('Password').fill(ACCOUNTS[who].password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === path && !url.searchParams.has('code'));
}

/**
 * What a signed-in browser at 1280 x 900 loads to show `path` with its cache off: every script of the page's own
 * origin fetched until the network is idle (lazy chunks and all), each gzipped at level 9. This is what the
 * budget counts, rather than what the build manifest says the page should load (issue 32).
 */
async function measure(page: Page, base: string, path: string): Promise<PageLoad> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const bodies: Promise<LoadedScript | null>[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin !== base || response.request().resourceType() !== 'script') return;
    bodies.push(
      response.body().then(
        (body) => ({ path: url.pathname, gzipBytes: gzipSync(body, { level: 9 }).length }),
        () => null,
      ),
    );
  });
  await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
  const seen = new Map<string, LoadedScript>();
  for (const script of await Promise.all(bodies)) if (script) seen.set(script.path, script);
  const scripts = [...seen.values()].sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { scripts, gzipBytes: scripts.reduce((sum, s) => sum + s.gzipBytes, 0) };
}

/** Starts the built product on a throw-away database and measures the account page and the admin dashboard. */
export async function measurePageLoads(): Promise<{ account: PageLoad; admin: PageLoad }> {
  const server = await prepareServer({
    entry: 'build',
    env: { DEMO_MEMBER_PASSWORD: ACCOUNTS.member.password, DEMO_ADMIN_PASSWORD: ACCOUNTS.admin.password },
  });
  const running = server.start();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await server.waitReady();
    const base = new URL(server.base).origin;
    const open = async (who: keyof typeof ACCOUNTS, path: string) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await signIn(page, base, path, who);
      const load = await measure(page, base, path);
      await context.close();
      return load;
    };
    return { account: await open('member', '/'), admin: await open('admin', '/admin') };
  } finally {
    await browser.close();
    running.child.kill('SIGTERM');
    await new Promise((resolve) => running.child.once('exit', resolve));
    await server.cleanup();
  }
}
