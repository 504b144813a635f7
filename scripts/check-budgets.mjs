// Front-end budgets checked by `npm test` after the build (issue 7).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webBundles } from './lib/web-bundles.mjs';

// Issue 15: the account page within 150 KB of JavaScript (gzip), the admin dashboard within 200 KB.
export const ACCOUNT_JS_BUDGET_BYTES = 150 * 1024;
export const ADMIN_JS_BUDGET_BYTES = 200 * 1024;

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bundles = webBundles(path.join(root, 'apps/web/dist'));
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const problems = [];

console.log(
  `Account page: ${kb(bundles.account.jsGzipBytes)} JavaScript, ${kb(bundles.account.cssGzipBytes)} CSS (gzip)`,
);
console.log(
  `Admin dashboard: ${kb(bundles.admin.jsGzipBytes)} JavaScript, ${kb(bundles.admin.cssGzipBytes)} CSS (gzip)`,
);
if (bundles.account.jsGzipBytes > ACCOUNT_JS_BUDGET_BYTES) {
  problems.push(
    `the account page loads ${kb(bundles.account.jsGzipBytes)} of JavaScript; the budget is ${kb(ACCOUNT_JS_BUDGET_BYTES)}`,
  );
}
if (bundles.admin.jsGzipBytes > ADMIN_JS_BUDGET_BYTES) {
  problems.push(
    `the admin dashboard loads ${kb(bundles.admin.jsGzipBytes)} of JavaScript; the budget is ${kb(ADMIN_JS_BUDGET_BYTES)}`,
  );
}
// Texts only the admin console's screens show: finding one in a file the account page loads means admin code leaked.
const ADMIN_MARKERS = ['UMS Admin', 'Create New Membership', 'Create New Package', 'Manage Products'];
const read = (file) => readFileSync(path.join(root, 'apps/web/dist', file), 'utf8');
const missing = ADMIN_MARKERS.filter(
  (marker) => !bundles.adminConsoleFiles.some((file) => read(file).includes(marker)),
);
if (missing.length > 0) problems.push(`the admin console build lacks ${missing.join(', ')}: update ADMIN_MARKERS`);
if (bundles.account.js.includes(bundles.adminChunk)) problems.push('the account page loads the admin console chunk');
for (const file of bundles.account.js) {
  const found = ADMIN_MARKERS.filter((marker) => read(file).includes(marker));
  if (found.length > 0) problems.push(`the account page loads admin console code (${found.join(', ')}) in ${file}`);
}

if (problems.length > 0) {
  console.error(`Budget check failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  'Budgets hold: account page JavaScript within 150 KB gzip, admin dashboard within 200 KB, no admin console code on the account page.',
);
