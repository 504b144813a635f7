// Runs npm scripts side by side and fails when any of them fails: `node scripts/together.mjs typecheck lint:code`.
// `npm test` runs the type check, ESLint and Prettier this way: each of them leaves most of a second core idle, so
// together they take little longer than the longest. Each script's output is printed whole when it ends, so two logs
// never interleave.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('Name the npm scripts to run side by side, e.g. node scripts/together.mjs typecheck lint');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (script) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ script, code: 1, output: [Buffer.from(String(error))], started }));
    child.on('close', (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), output, started }));
  });

const results = await Promise.all(
  scripts.map((script) =>
    run(script).then((result) => {
      const seconds = ((Date.now() - result.started) / 1000).toFixed(0);
      process.stdout.write(`\n> npm run ${script} (${result.code === 0 ? 'passed' : 'failed'}, ${seconds} s)\n`);
      process.stdout.write(Buffer.concat(result.output));
      return result;
    }),
  ),
);
const failed = results.filter((result) => result.code !== 0).map((result) => result.script);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.map((script) => `npm run ${script}`).join(', ')}`);
  process.exit(1);
}
