import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * What the browser loads for each screen of the built web app, from Vite's manifest: the entry with its static
 * imports, plus the screen's lazy chunk with its static imports. Sizes are gzip level 9, as a server would send.
 */
export function webBundles(distDir) {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8'));
  const closure = (key, seen = new Set(), lazy = false) => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) closure(dep, seen, lazy);
    if (lazy) for (const dep of manifest[key]?.dynamicImports ?? []) closure(dep, seen, lazy);
    return seen;
  };
  // The app's page (the build has a second page: the hidden sign-in frame's).
  const entryKey = 'index.html';
  const chunkKey = (fragment) => {
    const key = Object.keys(manifest).find((k) => k.includes(fragment));
    if (!key) throw new Error(`No chunk for ${fragment} in the build manifest`);
    return key;
  };
  const files = (keys) => {
    const js = new Set();
    const css = new Set();
    for (const key of keys) {
      js.add(manifest[key].file);
      for (const file of manifest[key].css ?? []) css.add(file);
    }
    return { js: [...js], css: [...css] };
  };
  // Stylesheets the page itself links (the extracted Griffel styles): every screen loads them.
  const pageCss = [
    ...readFileSync(path.join(distDir, 'index.html'), 'utf8').matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+)"/g),
  ].map((match) => match[1]);
  const gz = (file) => gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length;
  /** The entry, plus each named chunk with its static imports: what the browser loads to show that screen. */
  const screen = (...fragments) => {
    const keys = new Set([...closure(entryKey), ...fragments.flatMap((fragment) => [...closure(chunkKey(fragment))])]);
    const { js, css: chunkCss } = files(keys);
    const css = [...new Set([...pageCss, ...chunkCss])];
    return {
      js,
      css,
      jsGzipBytes: js.reduce((sum, f) => sum + gz(f), 0),
      cssGzipBytes: css.reduce((sum, f) => sum + gz(f), 0),
    };
  };
  const adminKey = chunkKey('features/admin/index.ts');
  return {
    account: screen('features/account/index.ts'),
    /** The admin console with its dashboard (the console's other pages are chunks of their own). */
    admin: screen('features/admin/index.ts'),
    adminChunk: manifest[adminKey].file,
    /** Every file the admin console can load, its pages included, less what the entry loads anyway. */
    adminConsoleFiles: files([...closure(adminKey, new Set(), true)].filter((key) => !closure(entryKey).has(key))).js,
  };
}
