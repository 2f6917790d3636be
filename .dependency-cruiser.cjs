/**
 * The import rules of the tree, checked in `npm test` (`npm run lint:deps`): no import circles,
 * lib/ in layers that import only downwards, and lib/retrieval in layers of its own behind its
 * public entry points. docs/development.md "Project layout" says what each folder is for.
 */

/** lib/, bottom layer first: a module may import from its own layer and those below, never above. */
const LIB_LAYERS = [
  ['lib/env.ts', 'lib/errors.ts', 'lib/format.ts', 'lib/http.ts', 'lib/log.ts', 'lib/storage-path.ts', 'lib/privacy/'],
  ['lib/retrieval/'],
  ['lib/ai/'],
  ['lib/knowledge/'],
  ['lib/store/', 'lib/kb-check/', 'lib/kb-test/', 'lib/rate-limit/', 'lib/telemetry/', 'lib/security/', 'lib/admin/'],
  ['lib/kb-impact/'],
  ['lib/chat/', 'lib/handoff/'],
  ['lib/server/'],
  ['lib/debug/', 'lib/help/'],
];

/** lib/retrieval, bottom layer first (the leaves are what every layer shares). */
const RETRIEVAL_LAYERS = [
  ['lib/retrieval/(types|config|errors|tokens|context-text|steps)\\.ts$'],
  ['lib/retrieval/query/'],
  ['lib/retrieval/kb/', 'lib/retrieval/rank/'],
  ['lib/retrieval/select/'],
  ['lib/retrieval/explain/'],
];

const escape = (prefix) => (prefix.endsWith('$') ? prefix : prefix.replace(/[.]/g, '\\.'));
const anyOf = (prefixes) => `^(${prefixes.map(escape).join('|')})`;
const TESTS = '(\\.test\\.ts|\\.spec\\.ts)$';

function layerRules(name, layers) {
  return layers.slice(0, -1).map((layer, i) => ({
    name: `${name}: ${layer.join(', ')} imports no layer above it`,
    severity: 'error',
    from: { path: anyOf(layer), pathNot: TESTS },
    to: { path: anyOf(layers.slice(i + 1).flat()) },
  }));
}

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'an import circle', from: {}, to: { circular: true } },
    ...layerRules('lib', LIB_LAYERS),
    ...layerRules('lib/retrieval', RETRIEVAL_LAYERS),
    {
      name: 'lib/retrieval/kb and rank are apart',
      severity: 'error',
      comment: 'reading the KB and ranking do not know each other',
      from: { path: '^lib/retrieval/(kb|rank)/' },
      to: { path: '^lib/retrieval/(kb|rank)/', pathNot: '^lib/retrieval/$1/' },
    },
    {
      name: 'lib/retrieval through its entry points',
      severity: 'error',
      comment: 'outside lib/retrieval, import lib/retrieval/index.ts (or client.ts in the browser), never a layer inside',
      from: { pathNot: `^lib/retrieval/|${TESTS}` },
      to: { path: '^lib/retrieval/', pathNot: '^lib/retrieval/(index|client)\\.ts$' },
    },
    {
      name: 'lib/retrieval is framework-free',
      severity: 'error',
      comment: 'the selector imports nothing else of the app, and no Next.js',
      from: { path: '^lib/retrieval/', pathNot: TESTS },
      to: { path: '^(lib/(?!retrieval/)|app/|components/|node_modules/next/)' },
    },
    {
      name: 'only lib/retrieval/kb reads files',
      severity: 'error',
      from: { path: '^lib/retrieval/', pathNot: `^lib/retrieval/kb/|${TESTS}` },
      to: { path: '^(fs|node:fs|fs/promises|node:fs/promises)$' },
    },
    {
      name: 'lib imports no app code',
      severity: 'error',
      comment: 'lib/ is imported by app/, components/, the CLIs and tests, never the other way round (tests aside)',
      from: { path: '^lib/', pathNot: TESTS },
      to: { path: '^(app|components|scripts|eval|bench|e2e)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.next|data|test-results)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
