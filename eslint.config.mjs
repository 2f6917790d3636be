import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

/**
 * ESLint for the whole tree, run by `npm test` (scripts/test.sh) before the build: Next.js's
 * core-web-vitals and TypeScript configs (typescript-eslint's recommended rules among them),
 * and the import style of the codebase (one way to name a module: see docs/development.md "How the code is held together").
 */
const TOP_FOLDERS = ['app', 'components', 'lib', 'scripts', 'eval', 'bench', 'e2e'];

/**
 * One import style: a module of another top-level folder is imported as `@/<folder>/…`, one of
 * the same folder relatively (`./x`, `../x`), and a TypeScript module without its extension.
 * (Plain .mjs files — next.config.mjs, the e2e stub — are run by Node itself and keep relative
 * paths with extensions.)
 */
function importStyle() {
  const pattern = (regex, message) => ({ regex, message });
  const common = [
    pattern(`^(\\./|(\\.\\./)+)(${TOP_FOLDERS.join('|')})/`, 'import a module of another top-level folder as @/<folder>/…'),
    pattern('\\.tsx?$', 'import a TypeScript module without its extension'),
  ];
  const forFolder = (folder) => ({
    files: [`${folder}/**/*.{ts,tsx,mts}`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...common, pattern(`^@/${folder}/`, `import a module of ${folder}/ relatively from inside ${folder}/`)] }],
    },
  });
  return [{ files: ['*.ts', '*.mts'], rules: { 'no-restricted-imports': ['error', { patterns: common }] } }, ...TOP_FOLDERS.map(forFolder)];
}

const config = [
  { ignores: ['.next/**', '.next-*/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'] },
  ...nextVitals,
  ...nextTypescript,
  ...importStyle(),
  {
    files: ['**/*.{js,jsx,mjs,ts,tsx,mts,cts}'],
    rules: {
      // Unused names are a smell, except a deliberately ignored argument or rest sibling.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      'import/no-duplicates': 'error',
    },
  },
];

export default config;
