import { parse } from '@babel/parser';
import type { Node } from '@babel/types';
import { styleBucketOrdering } from '@griffel/core';
import MagicString from 'magic-string';
import type { Plugin } from 'vite';

/**
 * Griffel's ahead-of-time CSS extraction, for Vite. Fluent's packages ship their styles precompiled as
 * `__styles(classes, cssRules)` / `__resetStyles(ltr, rtl, cssRules)` calls, and @griffel/vite-plugin compiles the
 * app's own `makeStyles` to the same form; at run time those calls insert the CSS text they carry. This plugin
 * moves that CSS text out of the JavaScript into one stylesheet (each atomic rule once) and rewrites the calls to
 * `__css(classes)` / `__resetCSS(ltr, rtl)`, which only map class names. Scripts get smaller and the first render
 * inserts no styles. Calls whose arguments are not plain literals are left as they are (they still work).
 */

const CALLS = { __styles: '__umsCss', __resetStyles: '__umsResetCss' } as const;
type Rule = string | [string, Record<string, unknown>];
type Buckets = Partial<Record<string, Rule[]>>;

const LITERAL_TYPES = new Set([
  'ObjectExpression',
  'ArrayExpression',
  'StringLiteral',
  'NumericLiteral',
  'NullLiteral',
  'BooleanLiteral',
  'ObjectProperty',
  'Identifier',
  'UnaryExpression',
]);

/** Only object, array and primitive literals (identifiers only as keys): safe to evaluate at build time. */
function isLiteral(node: Node, asKey = false): boolean {
  if (!LITERAL_TYPES.has(node.type)) return false;
  switch (node.type) {
    case 'Identifier':
      return asKey;
    case 'UnaryExpression':
      return node.operator === '-' && node.argument.type === 'NumericLiteral';
    case 'ObjectExpression':
      return node.properties.every((p) => p.type === 'ObjectProperty' && isLiteral(p));
    case 'ObjectProperty':
      return !node.computed && isLiteral(node.key, true) && isLiteral(node.value);
    case 'ArrayExpression':
      return node.elements.every((element) => element !== null && isLiteral(element));
    default:
      return true;
  }
}

function walk(node: unknown, visit: (node: Node) => void): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  const candidate = node as Node;
  if (typeof candidate.type === 'string') visit(candidate);
  for (const [key, value] of Object.entries(candidate)) {
    if (key !== 'loc' && key !== 'leadingComments' && key !== 'trailingComments') walk(value, visit);
  }
}

export function griffelCssExtraction(): Plugin {
  // The rules each module carried; only modules that end up in the build contribute to the stylesheet.
  const rulesByModule = new Map<string, Buckets[]>();
  const PLACEHOLDER = '/__griffel-styles.css';
  let sheetFile: string | null = null;

  /** Every bucket's rules, each once, in Griffel's bucket order (reset, default, ..., hover, ..., media): later wins. */
  const stylesheet = (modules: Iterable<string>) => {
    const buckets = new Map<string, Set<string>>();
    for (const id of modules) {
      for (const rules of rulesByModule.get(id) ?? []) {
        for (const [bucket, list] of Object.entries(rules)) {
          const set = buckets.get(bucket) ?? new Set<string>();
          buckets.set(bucket, set);
          for (const rule of list ?? []) set.add(Array.isArray(rule) ? rule[0] : rule);
        }
      }
    }
    const unknown = [...buckets.keys()].filter((bucket) => !(styleBucketOrdering as string[]).includes(bucket));
    if (unknown.length > 0) throw new Error(`Griffel style buckets this build does not know: ${unknown.join(', ')}`);
    return styleBucketOrdering.flatMap((bucket) => [...(buckets.get(bucket) ?? [])]).join('');
  };

  return {
    name: 'ums:griffel-css-extraction',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!/\.[cm]?[jt]sx?$/.test(id.split('?')[0]!) || !/__styles|__resetStyles/.test(code)) return null;
      const ast = parse(code, { sourceType: 'module', plugins: ['jsx', 'typescript'] });
      const output = new MagicString(code);
      const found: Buckets[] = [];
      // @griffel/vite-plugin compiles the app's own makeStyles to `__styles as _styles` imports: the calls go by the
      // local names (Fluent's precompiled packages call `__styles` itself).
      const names = new Map<string, keyof typeof CALLS>([
        ['__styles', '__styles'],
        ['__resetStyles', '__resetStyles'],
      ]);
      for (const statement of ast.program.body) {
        if (statement.type !== 'ImportDeclaration') continue;
        for (const specifier of statement.specifiers) {
          if (specifier.type !== 'ImportSpecifier' || specifier.imported.type !== 'Identifier') continue;
          const imported = specifier.imported.name;
          if (imported === '__styles' || imported === '__resetStyles') names.set(specifier.local.name, imported);
        }
      }
      walk(ast.program, (node) => {
        if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier') return;
        const name = names.get(node.callee.name);
        if (!name) return;
        const rulesArg = node.arguments[name === '__styles' ? 1 : 2];
        if (!rulesArg || !node.arguments.every((arg) => isLiteral(arg))) return;
        const rules = new Function(`return (${code.slice(rulesArg.start!, rulesArg.end!)});`)() as Buckets | string[];
        found.push(Array.isArray(rules) ? { r: rules } : rules);
        const kept = node.arguments
          .slice(0, name === '__styles' ? 1 : 2)
          .map((arg) => code.slice(arg.start!, arg.end!));
        output.overwrite(node.start!, node.end!, `${CALLS[name]}(${kept.join(', ')})`);
      });
      if (found.length === 0) return null;
      rulesByModule.set(id, found);
      output.prepend(
        `import { __css as ${CALLS.__styles}, __resetCSS as ${CALLS.__resetStyles} } from '@griffel/react';\n`,
      );
      return { code: output.toString(), map: output.generateMap({ hires: true }) };
    },
    generateBundle(_options, bundle) {
      const included = Object.values(bundle).flatMap((file) =>
        file.type === 'chunk'
          ? Object.entries(file.modules)
              .filter(([, info]) => info.renderedLength > 0)
              .map(([id]) => id)
          : [],
      );
      const reference = this.emitFile({ type: 'asset', name: 'styles.css', source: stylesheet(included) });
      sheetFile = this.getFileName(reference);
      // The page may have been written before this hook ran: point its link at the stylesheet.
      const page = bundle['index.html'];
      if (page?.type === 'asset' && typeof page.source === 'string') {
        page.source = page.source.replace(PLACEHOLDER, `/${sheetFile}`);
      }
    },
    transformIndexHtml: {
      order: 'post',
      // The app's page only; the hidden sign-in frame's page renders nothing.
      handler: (_html, context) =>
        context.path === '/index.html'
          ? [
              {
                tag: 'link',
                attrs: { rel: 'stylesheet', href: sheetFile ? `/${sheetFile}` : PLACEHOLDER },
                injectTo: 'head',
              },
            ]
          : [],
    },
  };
}
