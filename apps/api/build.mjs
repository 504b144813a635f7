// Bundles the server and the CLI; workspace packages are inlined, registry packages stay external.
import { build } from 'esbuild';

await build({
  entryPoints: { server: 'src/server.ts', cli: 'src/cli/index.ts' },
  outdir: 'dist',
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
