import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { createLightTheme } from '@fluentui/react-theme';
import griffel from '@griffel/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { accountFirstPaint } from './src/features/account/first-paint.js';
import { brown, THEME_FONTS } from './src/config/theme.js';
import { griffelCssExtraction } from './vite/griffel-css.js';

/**
 * The light theme as CSS variables in the page itself: what FluentProvider would compute and insert at run time,
 * done once at build time (no theme code to download, nothing to compute before the first paint).
 */
function themeVariables(): Plugin {
  const theme: Record<string, string | number> = { ...createLightTheme(brown), ...THEME_FONTS };
  const css = `:root{${Object.entries(theme)
    .map(([name, value]) => `--${name}:${value}`)
    .join(';')}}`;
  return {
    name: 'ums:theme-variables',
    transformIndexHtml: (_html, context) =>
      context.path === '/index.html'
        ? [{ tag: 'style', attrs: { id: 'ums-theme' }, children: css, injectTo: 'head-prepend' }]
        : [],
  };
}

/**
 * Fluent's `tokens` table maps each of its 467 token names to `var(--name)`; Fluent's button styles import the
 * whole table to read one entry. The build replaces the table with a lookup that answers the same string for every
 * name (the few tokens with a fallback value are kept as they are, read from the real table), saving its weight
 * on every page. Fluent only ever reads single entries from it.
 */
function compactTokens(): Plugin {
  const tokensModule = /[\\/]@fluentui[\\/]tokens[\\/]lib[\\/]tokens\.js$/;
  return {
    name: 'ums:compact-tokens',
    apply: 'build',
    enforce: 'pre',
    load: async (id) => {
      if (!tokensModule.test(id)) return null;
      const { tokens } = (await import('@fluentui/tokens')) as { tokens: Record<string, string> };
      const special = Object.fromEntries(Object.entries(tokens).filter(([name, value]) => value !== `var(--${name})`));
      return `const special = ${JSON.stringify(special)};
export const tokens = new Proxy(special, {
  get: (table, name) =>
    typeof name !== 'string' ? undefined : Object.hasOwn(table, name) ? table[name] : 'var(--' + name + ')',
});`;
    },
  };
}

/** Fonts the first screen paints with: fetched alongside the scripts instead of after the CSS has been read. */
const PRELOADED_FONTS = [
  /^assets\/figtree-latin-400-normal-.*\.woff2$/,
  /^assets\/antonio-latin-600-normal-.*\.woff2$/,
];

function preloadFonts(): Plugin {
  return {
    name: 'ums:preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, context) =>
        Object.keys(context.path === '/index.html' ? (context.bundle ?? {}) : {})
          .filter((file) => PRELOADED_FONTS.some((font) => font.test(file)))
          .map((file) => ({
            tag: 'link',
            attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${file}`, crossorigin: '' },
            injectTo: 'head' as const,
          })),
    },
  };
}

/**
 * The account page's static first paint (src/features/account/first-paint.ts), for the server to write into that
 * page: the page paints its frame and headings from the document alone, before the scripts arrive.
 */
function firstPaint(): Plugin {
  return {
    name: 'ums:first-paint',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'first-paint.json', source: JSON.stringify(accountFirstPaint()) });
    },
  };
}

/** Brotli and gzip copies of every text asset, so the server sends them compressed without compressing per request. */
function precompress(): Plugin {
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  let outDir = 'dist';
  return {
    name: 'ums:precompress',
    apply: 'build',
    configResolved: (config) => {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle: async () => {
      const assets = path.join(outDir, 'assets');
      const files = (await readdir(assets)).filter((file) => /\.(js|css|svg|woff)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const source = await readFile(path.join(assets, file));
          await writeFile(
            path.join(assets, `${file}.br`),
            await br(source, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
          );
          await writeFile(path.join(assets, `${file}.gz`), await gz(source, { level: 9 }));
        }),
      );
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [
    command === 'build' && griffel({ babelOptions: { presets: ['@babel/preset-typescript'] } }),
    compactTokens(),
    react(),
    griffelCssExtraction(),
    themeVariables(),
    preloadFonts(),
    firstPaint(),
    precompress(),
  ],
  server: { proxy: { '/api': 'http://localhost:8080', '/oidc': 'http://localhost:8080' } },
  // The manifest lets the server preload each screen's chunks, and the budget check and the benchmark see which
  // files each screen loads.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // Every browser the app supports preloads modules itself.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The hidden sign-in frame's page: one line of script instead of the app.
      input: {
        index: path.resolve(import.meta.dirname, 'index.html'),
        'silent-renew': path.resolve(import.meta.dirname, 'silent-renew.html'),
        // The account page's first script: fetches the app once the page's static first paint is on screen.
        start: path.resolve(import.meta.dirname, 'src/start.ts'),
      },
      output: {
        // What every screen runs before anything else, in one file: one compressed stream is smaller than the
        // dozen fragments automatic splitting makes of it, and one request.
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|oidc-client-ts|react-oidc-context|jwt-decode)[\\/]/,
            },
            {
              // Fluent's provider, styling runtime and focus handling: on every screen, never the console's dialogs.
              name: 'fluent-core',
              test: /node_modules[\\/](@fluentui[\\/](react-provider|react-shared-contexts|react-utilities|react-jsx-runtime|react-aria|keyboard-keys|react-theme|tokens)|keyborg|@griffel)[\\/]/,
            },
          ],
        },
      },
    },
  },
}));
