// One lint setup for the whole workspace.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/**
 * Every app takes the router from the SDK's shared module, which carries only the parts they
 * use; a direct import would bring a second router whose context the host never provides.
 */
const ROUTER_ONLY_THROUGH_SDK = {
  group: ['react-router', 'react-router/*', 'react-router-dom', 'react-router-dom/*'],
  message: 'Import the router from @kol/shared-sdk/router (one shared router for every app).',
};

/**
 * The server's layers (server/README.md, "Where things live"): each zone names what a folder
 * may not import, so the shape holds without anyone remembering it.
 */
const SERVER = 'server/src';
const PIPELINES = [
  'anime',
  'comics',
  'convert',
  'decompression',
  'image',
  'market',
  'merge',
  'opera',
  'scroll',
  'speech',
];
const SERVER_ZONES = [
  {
    target: `${SERVER}/video/engine`,
    from: [
      `${SERVER}/db`,
      `${SERVER}/repositories`,
      `${SERVER}/tasks`,
      `${SERVER}/routes`,
      `${SERVER}/http`,
      `${SERVER}/plugins`,
      `${SERVER}/providers`,
      `${SERVER}/video/pipelines`,
      `${SERVER}/video/library`,
    ],
    message: 'The engine is ffmpeg and drawing only: no database, tasks, HTTP or providers.',
  },
  {
    target: `${SERVER}/tasks`,
    from: [`${SERVER}/video`, `${SERVER}/writing`, `${SERVER}/routes`, `${SERVER}/providers`],
    message: 'tasks is a generic runner: the video module registers its pipelines into it.',
  },
  {
    target: `${SERVER}/providers`,
    from: [
      `${SERVER}/video`,
      `${SERVER}/writing`,
      `${SERVER}/tasks`,
      `${SERVER}/repositories`,
      `${SERVER}/routes`,
      `${SERVER}/db`,
    ],
    message: 'A provider talks to its service only; the modules that use it decide the rest.',
  },
  {
    target: `${SERVER}/repositories`,
    from: [`${SERVER}/routes`, `${SERVER}/video`, `${SERVER}/writing`, `${SERVER}/tasks`],
    message: 'Repositories are the query layer: they know the database, not who calls them.',
  },
  ...PIPELINES.map((name) => ({
    target: `${SERVER}/video/pipelines/${name}`,
    from: `${SERVER}/video/pipelines`,
    except: ['./kit', `./${name}`],
    message: 'A pipeline imports the kit, the engine and the library, never another pipeline.',
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      // The ops CLI's bundle (scripts/kol.mjs).
      'server/dist-cli/**',
      '**/.data/**',
      '**/coverage/**',
      'e2e/artifacts/**',
      // What the benchmarks build and write (bench/monolith's bundle).
      'bench/out/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs'] })],
      // no-cycle reads the imported files: it needs to know they are TypeScript.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js', '.mjs'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: SERVER_ZONES },
      ],
    },
  },
  {
    files: ['**/*.{js,cjs,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['jest.jsdom-setup.cjs'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    // The browser takes only types from the contracts: the schemas (and typebox) stay on the server.
    files: ['shared-sdk/src/**/*.ts'],
    ignores: ['shared-sdk/src/contracts/**', 'shared-sdk/src/**/__tests__/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/contracts', '**/contracts/*', 'typebox'], allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    // Remotes never import each other, nor anything's src/ but their own.
    files: ['host-shell/**', 'mfe-*/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@kol/mfe-*', '@kol/host-shell'],
              message: '远程模块之间不得互相引用（Remotes never import each other）.',
            },
            {
              group: ['**/shared-sdk/src/**', '@kol/*/src/**'],
              message: 'Use the package exports, not its src/.',
            },
            ROUTER_ONLY_THROUGH_SDK,
          ],
        },
      ],
    },
  },
  {
    files: ['shared-sdk/src/**/*.{ts,tsx}'],
    ignores: ['shared-sdk/src/router.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ROUTER_ONLY_THROUGH_SDK] }] },
  },
);
