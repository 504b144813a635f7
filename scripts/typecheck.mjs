// `npm run typecheck`: every project of the repository checked by TypeScript's native compiler (7.x, the package
// aliased `typescript-native`), one after the other; `npm run typecheck -- apps/web` checks the folders named.
// TypeScript 6 stays the `typescript` package, for typescript-eslint and editors (decision 033).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const PROJECTS = ['packages/contracts', 'packages/testkit', 'apps/api', 'apps/web', 'e2e', 'bench', 'scripts'];

const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript-native/package.json')),
  'bin/tsc',
);
const named = process.argv.slice(2);
const projects =
  named.length > 0 ? named.map((folder) => path.resolve(folder)) : PROJECTS.map((p) => path.join(root, p));

let failed = 0;
for (const project of projects) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '--pretty', 'false', '-p', project], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const name = path.relative(root, project) || '.';
  if (result.status === 0) {
    console.log(`typecheck ${name}: no errors (${seconds} s)`);
  } else {
    failed += 1;
    process.stdout.write(result.stdout ?? '');
    process.stderr.write(result.stderr || (result.error ? `${result.error.message}\n` : ''));
    console.log(`typecheck ${name}: failed (${seconds} s)`);
  }
}
process.exit(failed === 0 ? 0 : 1);
