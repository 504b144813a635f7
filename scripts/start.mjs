// `npm start`: builds what is not built yet, then runs the server (API + web app) in this process.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const newest = (dir) => {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
};
const stale = (output, sources) =>
  !existsSync(output) || sources.some((dir) => existsSync(dir) && newest(dir) > statSync(output).mtimeMs);

const builds = [
  ['@ums/web', 'apps/web/dist/index.html', ['apps/web/src', 'packages/contracts/src']],
  ['@ums/api', 'apps/api/dist/server.js', ['apps/api/src', 'packages/contracts/src']],
];
for (const [workspace, output, sources] of builds) {
  if (
    stale(
      path.join(root, output),
      sources.map((s) => path.join(root, s)),
    )
  ) {
    console.log(`[ums] building ${workspace}`);
    const result = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}
await import(path.join(root, 'apps/api/dist/server.js'));
