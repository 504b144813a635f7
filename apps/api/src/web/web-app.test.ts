import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, brotliDecompressSync, gzip, gzipSync, gunzipSync } from 'node:zlib';
import type { ClientConfig } from '@ums/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPTS_ELEMENT_ID } from '@ums/contracts/first-paint';
import { CONFIG_ELEMENT_ID, registerWebApp, renderPages } from './web-app.js';

const config: ClientConfig = {
  authority: 'http://localhost:8080/oidc',
  clientId: 'ums-web',
  scope: 'openid email phone profile',
  redirectPath: '/auth/callback',
  silentRenewPath: '/auth/silent-renew',
  frameSignIn: true,
  dpop: false,
  logoutUrl: 'http://localhost:8080/oidc/session/end?client_id={clientId}',
  forgotPasswordUrl: 'http://localhost:8080/oidc/password/forgot',
  emailChange: 'in-app',
  deletionGraceDays: 30,
  groupsClaim: 'groups',
  roleClaim: 'custom:role',
  adminGroup: 'Admin',
  supportGroup: 'Support',
  catalogGroup: 'Catalog',
  apiBase: '/api',
  businessTimeZone: 'America/New_York',
  analyticsUrl: null,
  companionApps: [],
  // A configured text that tries to end the element and run a script of its own.
  company: { name: '</script><script>alert(1)</script> & Co', termsUrl: '/t', privacyUrl: '/p' },
};

/** A build as Vite leaves it: the page, the manifest and hashed assets with their compressed copies. */
function fakeBuild(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ums-web-app-'));
  mkdirSync(path.join(root, 'assets'));
  mkdirSync(path.join(root, '.vite'));
  writeFileSync(
    path.join(root, 'index.html'),
    '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-1.js"></script>' +
      '<link rel="modulepreload" crossorigin href="/assets/shared-1.js"></head><body><div id="root"></div></body></html>',
  );
  const manifest = {
    'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_shared-1.js'] },
    '_shared-1.js': { file: 'assets/shared-1.js' },
    '_account-dep-1.js': { file: 'assets/account-dep-1.js', imports: ['_shared-1.js'] },
    'src/features/account/index.ts': { file: 'assets/account-1.js', imports: ['_account-dep-1.js', '_shared-1.js'] },
    'src/features/admin/index.ts': { file: 'assets/admin-1.js', imports: ['_shared-1.js'] },
    'src/start.ts': { file: 'assets/start-1.js', isEntry: true },
  };
  writeFileSync(path.join(root, '.vite', 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(
    path.join(root, 'silent-renew.html'),
    '<!doctype html><script type="module" src="/assets/silent-1.js"></script>',
  );
  writeFileSync(
    path.join(root, 'first-paint.json'),
    JSON.stringify({
      paths: ['/', '/personal-information'],
      css: '#ums-first-paint{position:fixed}',
      html: '<div id="ums-first-paint"><h1>My Account</h1></div>',
    }),
  );
  const script = Buffer.from(`export const value = "${'x'.repeat(2000)}";\n`);
  writeFileSync(path.join(root, 'assets', 'index-1.js'), script);
  writeFileSync(path.join(root, 'assets', 'index-1.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(root, 'assets', 'index-1.js.gz'), gzipSync(script));
  return root;
}

let root: string;
let app: FastifyInstance;

beforeAll(async () => {
  root = fakeBuild();
  app = Fastify();
  await registerWebApp(app, { webRoot: root, clientConfig: config });
});

afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

const page = async (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });
const configIn = (html: string) => {
  const match = new RegExp(`<script id="${CONFIG_ELEMENT_ID}" type="application/json">(.*?)</script>`).exec(html);
  return match ? (JSON.parse(match[1]!) as unknown) : null;
};
const preloads = (html: string) =>
  [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
const moduleScripts = (html: string) =>
  [...html.matchAll(/<script type="module" crossorigin src="([^"]+)"><\/script>/g)].map((m) => m[1]);
/** The scripts a page with a first paint lists for its start script to fetch after that paint. */
const scriptsListed = (html: string) => {
  const match = new RegExp(`<script id="${SCRIPTS_ELEMENT_ID}" type="application/json">(.*?)</script>`).exec(html);
  return match ? (JSON.parse(match[1]!) as unknown) : null;
};

describe('the web app page', () => {
  it('carries the client configuration, escaped so that no configured text can close its element', async () => {
    const response = await page('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).not.toContain('</script><script>alert(1)');
    expect(configIn(response.body)).toEqual(config);
  });

  it('preloads the console’s shared modules on its addresses, never the console itself', async () => {
    // Who signs in is not known yet: a member opening /admin must not download the console.
    for (const url of ['/admin', '/admin/memberships']) {
      const { body } = await page(url);
      expect(moduleScripts(body)).toEqual(['/assets/index-1.js']);
      expect(preloads(body)).toEqual(['/assets/shared-1.js']);
    }
    // The sign-in return and the sign-out screen render no area.
    for (const url of ['/auth/callback?code=1&state=2', '/logout-complete']) {
      expect(preloads((await page(url)).body)).toEqual(['/assets/shared-1.js']);
      expect(configIn((await page(url)).body)).toEqual(config);
    }
  });

  it('preloads the account area’s chunks on its pages without a first paint, and nothing the entry loads twice', async () => {
    const { body } = await page('/payment-information');
    expect(moduleScripts(body)).toEqual(['/assets/index-1.js']);
    expect(preloads(body)).toEqual(['/assets/shared-1.js', '/assets/account-1.js', '/assets/account-dep-1.js']);
  });

  it('opens the account page’s own addresses with its static first paint, its scripts listed for after that paint', async () => {
    for (const url of ['/', '/personal-information?from=mail']) {
      const { body } = await page(url);
      expect(body).toContain('<style>#ums-first-paint{position:fixed}</style>');
      expect(body).toContain('<body><div id="ums-first-paint"><h1>My Account</h1></div><div id="root"></div>');
      // No script of the app is fetched with the document: the start script fetches them all, side by side.
      expect(moduleScripts(body)).toEqual(['/assets/start-1.js']);
      expect(preloads(body)).toEqual([]);
      expect(scriptsListed(body)).toEqual({
        entry: '/assets/index-1.js',
        preload: ['/assets/shared-1.js', '/assets/account-1.js', '/assets/account-dep-1.js'],
      });
      expect(configIn(body)).toEqual(config);
    }
    // Pages of the account area that are not the account page, the console, the sign-in return: no first paint.
    for (const url of [
      '/payment-information',
      '/no-such-page',
      '/admin',
      '/auth/callback?code=1',
      '/logout-complete',
    ]) {
      const { body } = await page(url);
      expect(body).not.toContain('ums-first-paint');
      expect(scriptsListed(body)).toBeNull();
      expect(body).toContain('<body><div id="root"></div>');
    }
  });

  it('is the one-script page in the hidden sign-in frame, not the app', async () => {
    const response = await page('/auth/silent-renew?code=1&state=2');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('/assets/silent-1.js');
    expect(response.body).not.toContain('/assets/index-1.js');
    expect(configIn(response.body)).toBeNull();
  });

  it('is sent compressed to a browser that accepts it, and revalidated by its entity tag', async () => {
    const plain = await page('/');
    const br = await page('/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await page('/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(plain.headers['cache-control']).toBe('no-cache');

    const again = await page('/', { 'if-none-match': String(plain.headers['etag']) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const againCompressed = await page('/', {
      'if-none-match': String(plain.headers['etag']),
      'accept-encoding': 'br',
    });
    expect(againCompressed.statusCode).toBe(304);
    expect(againCompressed.headers['content-encoding']).toBeUndefined();
    expect(againCompressed.rawPayload).toHaveLength(0);
  });

  it('answers HEAD with the headers of the compressed page and no body', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/', headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['etag']).toBe((await page('/')).headers['etag']);
    expect(head.rawPayload).toHaveLength(0);
  });

  it('goes in the next encoding the browser accepts, or whole, when the page cannot be compressed', async () => {
    const other = Fastify();
    // As zlib fails when it cannot allocate its state.
    const encoders = {
      br: () => Promise.reject(new Error('Initialization failed')),
      gzip: (input: Buffer) => promisify(gzip)(input),
    };
    try {
      await registerWebApp(other, { webRoot: root, clientConfig: config, encoders });
      const response = await other.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body).toBe((await page('/')).body);
      const gz = await other.inject({ url: '/', headers: { 'accept-encoding': 'br, gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(response.body);
    } finally {
      await other.close();
    }
  });

  it('serves built assets from their compressed copies, cached for a year', async () => {
    const response = await page('/assets/index-1.js', { 'accept-encoding': 'br' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain('export const value');
  });

  it('leaves unknown API addresses to the API’s not-found answer', async () => {
    expect((await page('/api/nothing-here')).statusCode).toBe(404);
    expect((await page('/api/nothing-here')).body).not.toContain(CONFIG_ELEMENT_ID);
  });
});

describe('a web build that is not what the build writes', () => {
  const withBroken = (file: string, text: string, check: (root: string) => void) => {
    const broken = fakeBuild();
    try {
      writeFileSync(path.join(broken, file), text);
      check(broken);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  };

  it('stops the start with a sentence naming the first paint’s file and the fix', () => {
    withBroken('first-paint.json', JSON.stringify({ paths: '/', html: 1 }), (broken) =>
      expect(() => renderPages(broken, config)).toThrow(
        `${path.join(broken, 'first-paint.json')} is not the web build's first paint: ` +
          'build the web app again (npm run build)',
      ),
    );
  });

  it('stops the start with a sentence naming what the page lacks and the fix', () => {
    withBroken('index.html', '<!doctype html><html><head></head><body><main></main></body></html>', (broken) =>
      expect(() => renderPages(broken, config)).toThrow(
        "The web app's index.html has no entry script: build the web app again (npm run build)",
      ),
    );
  });
});
