import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { ClientConfig } from '@ums/contracts';
import { SCRIPTS_ELEMENT_ID, type FirstPaint, type PageScripts } from '@ums/contracts/first-paint';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * The screens the single-page app loads as their own chunk, by address prefix (longest first). A screen's chunk and
 * its static imports are preloaded from the page itself, so the browser fetches them alongside the entry instead
 * of after it has run. The admin console is not: the page cannot know who is signing in, and a member never
 * downloads the console's code (the app fetches it once the user is known to be an administrator).
 */
export const WEB_AREAS: readonly { prefix: string; chunk: string | null; firstPaint?: true }[] = [
  { prefix: '/admin', chunk: null },
  // The account area: its page's own addresses open with the page's static first paint (decision 035).
  { prefix: '/', chunk: 'src/features/account/index.ts', firstPaint: true },
];
/** Pages that render no area: the sign-in return, the hidden renewal frame, the sign-out screen. */
const NO_AREA = ['/auth/', '/logout-complete'];
export const CONFIG_ELEMENT_ID = 'ums-config';

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

/** The web build's static first paint of the account page (apps/web/src/features/account/first-paint.ts). */
const firstPaintSchema = z.strictObject({ paths: z.array(z.string()), css: z.string(), html: z.string() });

function readFirstPaint(webRoot: string): FirstPaint | null {
  const file = path.join(webRoot, 'first-paint.json');
  if (!existsSync(file)) return null;
  const read = firstPaintSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!read.success) {
    throw new Error(`${file} is not the web build's first paint: build the web app again (npm run build)`);
  }
  return read.data;
}

/** Puts `text` in place of `anchor` in the page, which the web build must have: a page without it is not ours. */
function inPlaceOf(html: string, anchor: string, text: string): string {
  if (!html.includes(anchor)) {
    throw new Error(`The web app's index.html has no ${anchor}: build the web app again (npm run build)`);
  }
  // A function, so that no `$` in the text is read as a replacement pattern.
  return html.replace(anchor, () => text);
}

type Encoding = 'br' | 'gzip';

interface Page {
  etag: string;
  identity: Buffer;
  /** The page in `encoding`, made the first time it is asked for and kept; null should zlib fail. */
  encoded: (encoding: Encoding) => Promise<Buffer | null>;
}

/** JSON that is safe inside a script element: nothing in it can close the element or start markup. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
/** How a page is put in each encoding. */
export type Encoders = Record<Encoding, (input: Buffer) => Promise<Buffer>>;
const ENCODERS: Encoders = {
  gzip: (input) => gzipAsync(input, { level: 9 }),
  br: (input) => brotliAsync(input, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
};

/**
 * A page and its compressed forms. They are made on libuv's threads, once the server listens (`registerWebApp`) or
 * when first asked for, rather than on the main thread during the start, where brotli's best quality for every page
 * took about 90 ms of it.
 */
function page(html: string, encoders: Encoders): Page {
  const identity = Buffer.from(html);
  const forms = new Map<Encoding, Promise<Buffer | null>>();
  return {
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    identity,
    encoded: (encoding) => {
      let form = forms.get(encoding);
      if (!form) {
        // A page that cannot be compressed goes as it is: never a rejection nobody handles, nor a broken answer.
        form = encoders[encoding](identity).catch(() => null);
        forms.set(encoding, form);
      }
      return form;
    },
  };
}

/** The web build's first script on a page with a first paint (apps/web/src/start.ts), by its manifest key. */
const START_CHUNK = 'src/start.ts';
const MODULE_SCRIPT = /<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>/g;

/**
 * A page that paints before its scripts run: the first paint's rules and markup in, and the app's scripts (its entry
 * and every module the page would preload) handed to the start script, which fetches them once that paint is on
 * screen. Fetched beside the stylesheet and fonts, they would share a slow connection's first moments with what the
 * paint needs (issue 32: a new tab with an empty cache).
 */
function paintFirst(html: string, painted: FirstPaint, start: string, areaPreload: string[]): string {
  const entry = MODULE_SCRIPT.exec(html);
  if (!entry) throw new Error("The web app's index.html has no entry script: build the web app again (npm run build)");
  const scripts: PageScripts = {
    entry: entry[1]!,
    preload: [...[...html.matchAll(MODULE_PRELOAD)].map((match) => match[1]!), ...areaPreload],
  };
  const tags =
    `<script id="${SCRIPTS_ELEMENT_ID}" type="application/json">${scriptJson(scripts)}</script>` +
    `<script type="module" crossorigin src="/${start}"></script>`;
  const withoutScripts = inPlaceOf(html, entry[0], '').replaceAll(MODULE_PRELOAD, '');
  const styled = inPlaceOf(withoutScripts, '</head>', `<style>${painted.css}</style>${tags}</head>`);
  return inPlaceOf(styled, '<div id="root">', `${painted.html}<div id="root">`);
}

/**
 * The built index.html for each area: the client configuration written into the page (no round trip before the
 * app can start) and the area's chunks preloaded; the account page's own addresses also get its static first paint
 * (the page's frame and headings, drawn before any script arrives). Built once at start; the configuration does not
 * change while the process runs.
 */
export function renderPages(webRoot: string, config: ClientConfig, encoders: Encoders = ENCODERS) {
  // Areas whose pages come out the same (one with no chunk of its own, and the plain page) share one.
  const pages = new Map<string, Page>();
  const pageOf = (html: string) => {
    let built = pages.get(html);
    if (!built) pages.set(html, (built = page(html, encoders)));
    return built;
  };
  const template = readFileSync(path.join(webRoot, 'index.html'), 'utf8');
  const manifestFile = path.join(webRoot, '.vite', 'manifest.json');
  const manifest: Manifest = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : {};
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) closure(dep, seen);
    return seen;
  };
  const entry = manifest['index.html'] ? 'index.html' : undefined;
  const loadedByEntry = entry ? closure(entry) : new Set<string>();
  const configTag = `<script id="${CONFIG_ELEMENT_ID}" type="application/json">${scriptJson(config)}</script>`;
  const firstPaint = readFirstPaint(webRoot);
  const start = manifest[START_CHUNK]?.file;
  const build = (chunk: string | null, painted: FirstPaint | null = null) => {
    const preload = chunk
      ? [...closure(chunk)].filter((key) => !loadedByEntry.has(key)).map((key) => `/${manifest[key]!.file}`)
      : [];
    if (painted && start) {
      return pageOf(paintFirst(inPlaceOf(template, '</head>', `${configTag}</head>`), painted, start, preload));
    }
    const tags = preload.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`);
    return pageOf(inPlaceOf(template, '</head>', `${[configTag, ...tags].join('')}</head>`));
  };
  const areas = WEB_AREAS.map((area) => {
    const chunk = area.chunk && manifest[area.chunk] ? area.chunk : null;
    return {
      prefix: area.prefix,
      page: build(chunk),
      painted:
        area.firstPaint && chunk && firstPaint && start
          ? { paths: new Set(firstPaint.paths), page: build(chunk, firstPaint) }
          : null,
    };
  });
  const plain = build(null);
  // The hidden sign-in frame gets its own one-script page when the build has it.
  const silentFile = path.join(webRoot, 'silent-renew.html');
  const silent = existsSync(silentFile) ? pageOf(readFileSync(silentFile, 'utf8')) : plain;
  const pageFor = (url: string): Page => {
    const pathname = url.split(/[?#]/, 1)[0]!;
    if (pathname === config.silentRenewPath) return silent;
    if (NO_AREA.some((prefix) => pathname.startsWith(prefix))) return plain;
    const area = areas.find(({ prefix }) => pathname === prefix || pathname.startsWith(`${prefix}/`) || prefix === '/');
    if (!area) return plain;
    return area.painted?.paths.has(pathname) ? area.painted.page : area.page;
  };
  return Object.assign(pageFor, { pages: [...pages.values()] });
}

/** The encodings a page goes in, best first, each with how an Accept-Encoding header names it. */
const ACCEPTED = [
  ['br', /\bbr\b/],
  ['gzip', /\bgzip\b/],
] as const satisfies readonly (readonly [Encoding, RegExp])[];

async function send(request: FastifyRequest, reply: FastifyReply, html: Page) {
  reply.header('cache-control', 'no-cache').header('etag', html.etag).header('vary', 'accept-encoding');
  reply.type('text/html; charset=utf-8');
  if (request.headers['if-none-match'] === html.etag) return reply.code(304).send();
  const accepted = String(request.headers['accept-encoding'] ?? '');
  for (const [encoding, named] of ACCEPTED) {
    const encoded = named.test(accepted) ? await html.encoded(encoding) : null;
    if (encoded) return reply.header('content-encoding', encoding).send(encoded);
  }
  return reply.send(html.identity);
}

/**
 * Serves the built web app: hashed assets compressed ahead of time (the build writes .br and .gz beside each file)
 * and cached for a year; every other GET outside /api answers the app's page for its area.
 */
export async function registerWebApp(
  app: FastifyInstance,
  options: { webRoot: string; clientConfig: ClientConfig; encoders?: Encoders },
) {
  const pageFor = renderPages(options.webRoot, options.clientConfig, options.encoders);
  // Every page's forms made ahead of its first visitor, once the start's own work is done.
  app.addHook('onListen', async () => {
    for (const built of pageFor.pages) for (const [encoding] of ACCEPTED) void built.encoded(encoding);
  });
  // wildcard: false registers one route per built file; everything else falls through to the page.
  await app.register(fastifyStatic, {
    root: options.webRoot,
    prefix: '/',
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders: (reply, file) => {
      // Vite names every file under assets/ by its content: a new build is a new address.
      if (file.startsWith(path.join(options.webRoot, 'assets') + path.sep)) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      }
    },
  });
  app.get('/*', { config: { policy: 'public' }, schema: { hide: true } }, (request, reply) => {
    if (request.url.startsWith('/api/')) return reply.callNotFound();
    return send(request, reply, pageFor(request.url));
  });
}
