// `npm run cli -- <command>`: the operator commands, built first when needed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'apps/api/dist/cli.js');
if (!existsSync(cli)) {
  const result = spawnSync('npm', ['run', 'build', '-w', '@ums/api'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import(cli);
