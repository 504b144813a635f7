import path from 'node:path';

// The web app's import direction, checked by ESLint (decision 007):
//   app -> features -> shared (components, lib, config) -> @ums/contracts
// A feature uses another feature only through that feature's index.ts; app reaches features the same way. Test
// helpers (src/test) serve the tests only. Nothing in apps/ reaches into packages/ by a relative path.

const repoRoot = path.resolve(import.meta.dirname, '..');
const webSrc = path.join(repoRoot, 'apps', 'web', 'src');
const SHARED = new Set(['components', 'lib', 'config']);

/** Where a file of the web app sits: its layer, and its feature's name for a feature. */
export function placeOf(file) {
  const relative = path.relative(webSrc, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const [top, second] = relative.split(path.sep);
  if (top === 'app' || relative === 'main.tsx') return { layer: 'app' };
  if (top === 'features' && second) return { layer: 'feature', feature: second };
  if (SHARED.has(top)) return { layer: 'shared' };
  if (top === 'test') return { layer: 'test' };
  return null;
}

const isTestFile = (file) => /\.test\.tsx?$/.test(file) || placeOf(file)?.layer === 'test';
const isIndexOf = (target, feature) =>
  path.dirname(target) === path.join(webSrc, 'features', feature) &&
  path.basename(target).replace(/\.[cm]?[jt]sx?$/, '') === 'index';

/** Why importing `target` from `file` breaks the direction, or null when it does not. */
export function boundaryProblem(file, target) {
  const packages = path.join(repoRoot, 'packages') + path.sep;
  if (file.startsWith(path.join(repoRoot, 'apps') + path.sep) && target.startsWith(packages)) {
    return 'import the shared package by its name (@ums/contracts), not by a relative path';
  }
  const from = placeOf(file);
  const to = placeOf(target);
  if (!from || !to) return null;
  if (to.layer === 'test') return isTestFile(file) ? null : 'only tests may use the test helpers in src/test';
  if (from.layer === 'test')
    return to.layer === 'shared' ? null : 'test helpers may use only components, lib and config';
  if (from.layer === 'shared' && to.layer !== 'shared') {
    return `components, lib and config are shared: they may not import from ${to.layer === 'app' ? 'app' : 'features'}`;
  }
  if (from.layer === 'feature' && to.layer === 'app')
    return 'features may not import from app: move what they need into lib or config';
  if (
    to.layer === 'feature' &&
    (from.layer === 'app' || from.feature !== to.feature) &&
    !isIndexOf(target, to.feature)
  ) {
    return `use features/${to.feature} only through features/${to.feature}/index.ts`;
  }
  return null;
}

/** The file a relative import names ("./x.js" stands for x.ts or x.tsx; the extension does not matter here). */
function resolveSpecifier(file, specifier) {
  return path.resolve(path.dirname(file), specifier);
}

/** @type {import('eslint').Rule.RuleModule} */
export const importBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps the web app importing in one direction: app -> features -> shared -> contracts' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const check = (node, source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) {
        return;
      }
      const problem = boundaryProblem(file, resolveSpecifier(file, source.value));
      if (problem) context.report({ node, message: `${source.value}: ${problem}` });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export default { rules: { 'import-boundaries': importBoundaries } };
