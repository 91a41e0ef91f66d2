// Lint with zero warnings, plus the layering rules of docs/architecture: only main/electron and
// preload may import electron; main/core imports no adapter; the renderer imports no node: module.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const adapterPackages = ['electron', 'fastify', 'fastify-*', '@fastify/*', 'better-sqlite3', 'pino', 'pino-*', 'nodemailer', 'qrcode', 'react', 'react-dom', 'zustand'];

/** The import rules between layers; tests/unit/layering.test.ts proves they fire. */
export const layeringRules = [
  {
    // Everything outside main/electron and preload: no electron.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['main/electron/**', 'preload/**', 'tests/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only main/electron and preload may import electron.' }] }],
    },
  },
  {
    files: ['main/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: adapterPackages, message: 'main/core is plain Node: it talks to adapters only through ports.ts.' },
            { group: ['**/db/**', '**/http/**', '**/electron/**', '**/processor/**', '**/infra/**', '**/compose*', '**/cli*', '**/settings*'], message: 'main/core never imports an adapter or a host.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'electron'], message: 'The renderer runs in a browser sandbox: no Node modules.' },
            { group: ['**/main/**', '**/db/**'], allowTypeImports: true, message: 'The renderer imports the core contract type-only.' },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'renderer/dist/', 'tmp/', 'docs/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'bin/*.js', 'scripts/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { ...globals.node } },
  },
  ...layeringRules,
  {
    files: ['main/cli.ts', 'scripts/**', 'bin/**', 'bench/**', 'tests/**'],
    rules: { 'no-console': 'off' },
  },
);
