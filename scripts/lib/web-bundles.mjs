import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * What the browser loads for each screen of the built web app, from Vite's manifest: the entry with its static
 * imports, plus the screen's lazy chunk with its static imports. Sizes are gzip level 9, as a server would send.
 */
export function webBundles(distDir) {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8'));
  const closure = (key, seen = new Set()) => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
    return seen;
  };
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
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
  const gz = (file) => gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length;
  const screen = (fragment) => {
    const keys = new Set([...closure(entryKey), ...closure(chunkKey(fragment))]);
    const { js, css } = files(keys);
    return {
      js,
      css,
      jsGzipBytes: js.reduce((sum, f) => sum + gz(f), 0),
      cssGzipBytes: css.reduce((sum, f) => sum + gz(f), 0),
    };
  };
  return {
    account: screen('features/account/index.ts'),
    admin: screen('features/admin/index.ts'),
    adminChunk: manifest[chunkKey('features/admin/index.ts')].file,
  };
}
