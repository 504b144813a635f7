// Front-end budgets checked by `npm test` after the build (issue 7).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measurePageLoads } from './lib/page-load.ts';
import { webBundles } from './lib/web-bundles.mjs';

// Issue 15: the account page within 150 KB of JavaScript (gzip), the admin dashboard within 200 KB.
export const ACCOUNT_JS_BUDGET_BYTES = 150 * 1024;
export const ADMIN_JS_BUDGET_BYTES = 200 * 1024;

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bundles = webBundles(path.join(root, 'apps/web/dist'));
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const problems = [];

// What a signed-in browser really loads until the network is idle (issue 32): the build manifest's list of a
// screen's files missed chunks the page fetches right after its first render.
const loads = await measurePageLoads();
const list = (load) => load.scripts.map((s) => `${s.path.replace('/assets/', '')} ${kb(s.gzipBytes)}`).join(', ');
console.log(`Account page: ${kb(loads.account.gzipBytes)} JavaScript loaded until idle (${list(loads.account)})`);
console.log(`Admin dashboard: ${kb(loads.admin.gzipBytes)} JavaScript loaded until idle (${list(loads.admin)})`);
console.log(
  `CSS (gzip): account page ${kb(bundles.account.cssGzipBytes)}, admin dashboard ${kb(bundles.admin.cssGzipBytes)}`,
);
if (loads.account.gzipBytes > ACCOUNT_JS_BUDGET_BYTES) {
  problems.push(
    `the account page loads ${kb(loads.account.gzipBytes)} of JavaScript before it is idle; the budget is ${kb(ACCOUNT_JS_BUDGET_BYTES)}`,
  );
}
if (loads.admin.gzipBytes > ADMIN_JS_BUDGET_BYTES) {
  problems.push(
    `the admin dashboard loads ${kb(loads.admin.gzipBytes)} of JavaScript before it is idle; the budget is ${kb(ADMIN_JS_BUDGET_BYTES)}`,
  );
}
// Texts only the admin console's screens show: finding one in a file the account page loads means admin code leaked.
const ADMIN_MARKERS = ['UMS Admin', 'Create New Membership', 'Create New Package', 'Manage Products'];
const read = (file) => readFileSync(path.join(root, 'apps/web/dist', file), 'utf8');
const missing = ADMIN_MARKERS.filter(
  (marker) => !bundles.adminConsoleFiles.some((file) => read(file).includes(marker)),
);
if (missing.length > 0) problems.push(`the admin console build lacks ${missing.join(', ')}: update ADMIN_MARKERS`);
if (loads.account.scripts.some((script) => script.path === `/${bundles.adminChunk}`)) {
  problems.push('the account page loads the admin console chunk');
}
for (const file of loads.account.scripts.map((script) => script.path.slice(1))) {
  const found = ADMIN_MARKERS.filter((marker) => read(file).includes(marker));
  if (found.length > 0) problems.push(`the account page loads admin console code (${found.join(', ')}) in ${file}`);
}

if (problems.length > 0) {
  console.error(`Budget check failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  'Budgets hold: the account page loads at most 150 KB of JavaScript (gzip) until idle, the admin dashboard at most 200 KB, and no admin console code on the account page.',
);
