// Lint with zero warnings, plus the layering rules of docs/architecture: only main/electron and
// preload may import electron; main/core imports no adapter; db imports no main/http; main/http
// imports no db; contract/ imports nothing of the project and nothing of Node; the renderer imports
// no node: module and nothing of main/ or db/ (the contract instead); and no import cycles.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import formatjs from 'eslint-plugin-formatjs';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * formatjs's no-literal-string-in-jsx, except for a literal of white space only: Prettier writes
 * `{' '}` where a line of JSX text ends in a space, and a space has no language.
 */
const literalTextRule = formatjs.rules['no-literal-string-in-jsx'];
const textRule = {
  meta: literalTextRule.meta,
  create(context) {
    const report = (descriptor) => {
      const node = descriptor.node;
      if (node && node.type === 'Literal' && typeof node.value === 'string' && node.value.trim() === '') return;
      context.report(descriptor);
    };
    return literalTextRule.create(Object.create(context, { report: { value: report } }));
  },
};

/** The renderer's files whose text comes from the message catalogues (D21, issue 36): lint holds them to it. */
const I18N_SCREENS = [
  'renderer/src/cashier/login.tsx',
  'renderer/src/ui/secret-field.tsx',
  'renderer/src/ui/i18n.tsx',
  'renderer/src/shell/**/*.tsx',
  'renderer/src/staff/**/*.tsx',
  'renderer/src/settings/*.tsx',
  'renderer/src/sales/*.tsx',
  'renderer/src/reports/*.tsx',
  'renderer/src/dashboard/*.tsx',
  'renderer/src/ui/*.tsx',
  'renderer/src/network-tokens/*.tsx',
  'renderer/src/postbacks/*.tsx',
  'renderer/src/cashier/cashier.tsx',
  'renderer/src/till-screen/*.tsx',
  'renderer/src/receipts/*.tsx',
  'renderer/src/tills/*.tsx',
  'renderer/src/transactions/**/*.tsx',
  'renderer/src/checkouts/**/*.tsx',
  'renderer/src/invoices/**/*.tsx',
];

const adapterPackages = [
  'electron',
  'fastify',
  'fastify-*',
  '@fastify/*',
  'better-sqlite3',
  'pino',
  'pino-*',
  'nodemailer',
  'qrcode',
  'react',
  'react-dom',
  'zustand',
];
const nodeModules = ['node:*', ...builtinModules];
const electron = { name: 'electron', message: 'Only main/electron and preload may import electron.' };

/**
 * The one contract of core, routes and renderer (docs/decisions.md "One contract") runs in Node and
 * in the browser: no Node module or global, no adapter package, and no import that leaves contract/
 * (a file `depth` folders below contract/ leaves it with `depth + 1` times `../`).
 */
function contractRules(depth) {
  return {
    files: [`contract/${'*/'.repeat(depth)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...nodeModules, ...adapterPackages],
              message: 'contract/ runs in the browser too: no Node module, no adapter package.',
            },
            { regex: `^(\\.\\./){${depth + 1}}(?!contract/)`, message: 'contract/ imports nothing of the project outside contract/.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['Buffer', 'process', 'require', 'module', '__dirname', '__filename', 'global', 'setImmediate'].map((name) => ({
          name,
          message: 'contract/ runs in the browser too: no Node globals.',
        })),
      ],
    },
  };
}

const corePatterns = [
  {
    group: adapterPackages,
    message: 'main/core is plain Node: it talks to adapters only through its ports (kernel.ts, unit-of-work.ts, <feature>/ports.ts).',
  },
  {
    group: ['**/db/**', '**/http/**', '**/electron/**', '**/processor/**', '**/infra/**', '**/compose*', '**/cli*'],
    message: 'main/core never imports an adapter or a host.',
  },
  // The host's settings (main/settings.ts), not the settings feature (main/core/settings/).
  { regex: '^(\\.\\./)+settings\\.js$', message: 'main/core never imports an adapter or a host.' },
];

/**
 * The feature folders of main/core and the other features each may import, lower ones first
 * (docs/decisions.md "Feature modules"). A feature not listed is out of reach, so the folders form
 * no cycle: tests/unit/layering.test.ts sorts this table and proves the rules fire. Adding a feature:
 * a folder, a line here naming what it uses, and nothing above it may be named by what it uses.
 */
export const coreFeatures = {
  idempotency: [],
  merchants: [],
  'payment-methods': ['merchants'],
  dashboard: [],
  mandates: ['idempotency'],
  'network-tokens': ['idempotency'],
  tills: ['merchants'],
  staff: ['merchants', 'tills'],
  payments: ['idempotency', 'mandates', 'payment-methods', 'network-tokens', 'tills'],
  receipts: ['merchants', 'payments'],
  reports: ['merchants', 'receipts', 'staff', 'tills'],
  mail: ['receipts'],
  transactions: ['payment-methods', 'payments', 'staff', 'tills'],
  postbacks: ['idempotency', 'mail', 'merchants', 'payments', 'receipts'],
  centre: ['idempotency', 'merchants', 'payments', 'reports', 'staff', 'tills'],
  'till-attempts': ['centre', 'idempotency', 'payments', 'transactions'],
  checkouts: ['idempotency', 'mandates', 'merchants', 'payment-methods', 'payments', 'transactions'],
  invoices: ['checkouts', 'idempotency', 'mail', 'merchants', 'payment-methods', 'payments', 'transactions'],
  settings: ['mail', 'merchants', 'staff'],
};

/** A core feature folder: the core's rules, no feature it does not list, and never gateway.ts (the composition). */
function coreFeatureRules(feature) {
  const others = Object.keys(coreFeatures).filter((name) => name !== feature && !coreFeatures[feature].includes(name));
  return {
    files: [`main/core/${feature}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...corePatterns,
            {
              regex: `^\\.\\./(${others.join('|')})/`,
              message: `main/core/${feature} may import only the features it lists in eslint.config.js coreFeatures (${coreFeatures[feature].join(', ') || 'none'}).`,
            },
            { regex: '^\\.\\./gateway\\.js$', message: 'A feature never imports gateway.ts: the composition stands above every feature.' },
          ],
        },
      ],
    },
  };
}

/** The import rules between layers; tests/unit/layering.test.ts proves they fire. */
/**
 * The gateway's paths are the contract's (contract/operation-table.ts): the renderer and main name an
 * operation (`call`, `pathOf`, `route`, `operationOf`, `OPERATIONS[name]`) instead of writing its path.
 */
const gatewayPathRule = [
  'error',
  { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
  ...['Literal', 'TemplateElement'].map((node) => ({
    selector: `${node}[${node === 'Literal' ? 'value' : 'value.raw'}=/^\\/(ui|rest|v2|centre|test)\\//]`,
    message: "A gateway path belongs to the contract: call('feature.verb', ...), pathOf(...) or OPERATIONS[name] instead.",
  })),
];

/**
 * A core message does not know the HTTP routes (issue 37): a string of main/core that names a path
 * inside its text ("use PUT /rest/...") is reported, on top of gatewayPathRule's strings that are a
 * path; a relative import (`../centre/ports.js`: a dot before the slash) is none. The message names
 * the operation or the thing in words instead.
 */
const coreRouteRule = [
  ...gatewayPathRule,
  ...['Literal', 'TemplateElement'].map((node) => ({
    selector: `${node}[${node === 'Literal' ? 'value' : 'value.raw'}=/[^.\\w]\\/(ui|rest|v2|centre|test)\\//]`,
    message: "A core message does not name a route: say the operation or the thing in words (the route is main/http's).",
  })),
];

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
    rules: { 'no-restricted-imports': ['error', { patterns: corePatterns }] },
  },
  {
    // The kernel files of main/core (kernel, unit of work, errors, paging, locks, ...) import no
    // feature; only gateway.ts (the composition of every feature's view) stands above them.
    files: ['main/core/*.ts'],
    ignores: ['main/core/gateway.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...corePatterns,
            { regex: `^\\./(${Object.keys(coreFeatures).join('|')})/`, message: 'A kernel file of main/core imports no feature.' },
          ],
        },
      ],
    },
  },
  ...Object.keys(coreFeatures).map(coreFeatureRules),
  {
    // Adapters of the core's ports (vault, mailer, postback sender, printer, centre client): the
    // core and the contract, never another adapter, a transport or a host.
    files: ['main/infra/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron],
          patterns: [
            {
              group: ['**/db/**', '**/http/**', '**/electron/**', '**/processor/**', '**/compose*', '**/cli*', '**/start*'],
              message: 'main/infra adapts the core to the outside: it imports the core and the contract, no other adapter and no host.',
            },
          ],
        },
      ],
    },
  },
  {
    // The processor simulator implements the core's Processor port: ports and kernel only.
    files: ['main/processor/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron],
          patterns: [
            {
              group: ['**/db/**', '**/http/**', '**/electron/**', '**/infra/**', '**/compose*', '**/cli*', '**/start*'],
              message: 'main/processor is an adapter of the Processor port: no other adapter and no host.',
            },
            {
              regex: '^\\.\\./core/(?!kernel\\.js$|[a-z-]+/ports\\.js$)',
              message: 'main/processor sees the core only through its ports (kernel.ts, <feature>/ports.ts), not its use cases.',
            },
          ],
        },
      ],
    },
  },
  {
    // The adapters meet only in compose.ts: the database layer knows no HTTP and no desktop shell.
    files: ['db/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron],
          patterns: [
            {
              group: ['**/main/http/**', '**/main/electron/**'],
              message: 'db is an adapter of the core: it imports no main/http and no main/electron.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['main/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron],
          patterns: [
            { group: ['**/db/**', 'better-sqlite3'], message: 'main/http reaches data through the core (the Gateway), never through db.' },
          ],
        },
      ],
    },
  },
  ...[0, 1, 2].map(contractRules),
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: [...nodeModules, 'electron'], message: 'The renderer runs in a browser sandbox: no Node modules.' },
            {
              group: ['**/main/**', '**/db/**'],
              message:
                'The renderer talks to the gateway through its clients (api/call.ts) and takes types, codes and helpers from contract/, never from main/ or db/.',
            },
            {
              group: ['**/contract/api/**'],
              allowTypeImports: true,
              message:
                'contract/api holds TypeBox schemas: the renderer imports their types only (values come from contract/*.ts, so no schema code lands in the bundle).',
            },
          ],
        },
      ],
      'no-restricted-syntax': gatewayPathRule,
    },
  },
  {
    // D21: staff screens take their words from the message catalogues (contract/i18n, through
    // ui/i18n.tsx useT): no literal text in JSX, neither as text nor in the props people read. The
    // screens converted so far; the list grows until it is the whole renderer.
    files: I18N_SCREENS,
    plugins: { i18n: { rules: { 'no-literal-string-in-jsx': textRule } } },
    rules: {
      'i18n/no-literal-string-in-jsx': [
        'error',
        { props: { include: [['*', '{aria-label,aria-description,title,placeholder,alt,legend,label}']] } },
      ],
    },
  },
  {
    // main names operations too: route(), operationOf(), OPERATIONS[name], pathOf(). The OpenAPI
    // document's examples show request paths as a client writes them.
    files: ['main/**/*.ts'],
    ignores: ['main/http/openapi-examples.ts'],
    rules: { 'no-restricted-syntax': gatewayPathRule },
  },
  {
    // main/core's messages name no route either (coreRouteRule).
    files: ['main/core/**/*.ts'],
    rules: { 'no-restricted-syntax': coreRouteRule },
  },
];

/**
 * No import cycles anywhere (eslint-plugin-import's no-cycle, resolving imports as TypeScript does
 * for each tsconfig). Not eslint-plugin-import-x: its resolver needs native bindings whose
 * other-platform packages the registry here lacks, so `npm ci` could not lock them.
 */
export const cycleRules = [
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { import: importPlugin },
    settings: {
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': {
        typescript: {
          noWarnOnMultipleProjects: true,
          project: [
            'tsconfig.json',
            'renderer/tsconfig.json',
            'renderer/tsconfig.node.json',
            'tsconfig.electron.json',
            'contract/tsconfig.json',
          ],
        },
      },
    },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'renderer/dist/', 'tmp/', 'docs/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'bin/*.js', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
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
  ...cycleRules,
  {
    files: ['main/cli.ts', 'scripts/**', 'bin/**', 'bench/**', 'tests/**'],
    rules: { 'no-console': 'off' },
  },
);
