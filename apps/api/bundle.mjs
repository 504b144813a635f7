// The server and the CLI bundled into one file each: workspace packages inlined, registry packages left external.
// `npm run build` writes them to dist/; the API tests write them once per run to .test-build/ (decision 028). Either
// folder sits beside src/, which is where the bundle finds its migrations, catalog and the web app (src/runtime.ts).
import path from 'node:path';
import { build } from 'esbuild';

/** Bundles into `outdir`, a folder of apps/api (relative to it, or absolute). */
export async function bundle(outdir) {
  await build({
    absWorkingDir: import.meta.dirname,
    entryPoints: { server: 'src/server.ts', cli: 'src/cli/index.ts' },
    outdir: path.resolve(import.meta.dirname, outdir),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    packages: 'external',
    // The contracts' entry points (the package root, /constants, /envelope, /password-policy) are its src files.
    alias: { '@ums/contracts': '../../packages/contracts/src' },
    logLevel: 'warning',
  });
}
