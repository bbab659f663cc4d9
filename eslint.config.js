// One lint setup for the whole workspace.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

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
    target: `${SERVER}/ops`,
    from: [`${SERVER}/routes`, `${SERVER}/video`, `${SERVER}/writing`, `${SERVER}/repositories`],
    message: 'ops counts and stops what the others do: it is handed their parts, never reaches in.',
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

/**
 * The front ends' layers (bulletproof-react, ../shared/design/STYLE.md; each package's README,
 * "Layout"): code flows one way, shared folders -> features -> pages -> app, and a feature (or a
 * flow, the unit a remote of step-by-step flows is cut into) never imports another one: two of
 * them meet at the page that composes them. Tests may reach across layers to what they test.
 */
const ROOT = import.meta.dirname;
const FRONT_ENDS = ['host-shell', 'mfe-user', 'mfe-works', 'mfe-writing', 'mfe-video'];
// flow-kit: a remote's small shared kit of its step-by-step flows (steps bar, saved work, settings
// controls), under every flow and feature like the other shared folders.
const SHARED_FOLDERS = ['components', 'hooks', 'lib', 'flow-kit'];
const UNIT_FOLDERS = ['features', 'flows'];
const TEST_FOLDERS = ['__tests__', 'testing'];

/**
 * A remote's features and flows are the folders under features/ and flows/, read here rather than
 * listed, so a new one is kept apart from the others without anyone adding it.
 */
function unitsOf(pkg) {
  return UNIT_FOLDERS.flatMap((folder) => {
    const dir = path.join(ROOT, pkg, 'src', folder);
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${folder}/${entry.name}`);
  }).sort();
}

const remoteLayers = (pkg) => ({
  app: ['app.tsx'],
  pages: ['pages'],
  units: unitsOf(pkg),
  shared: SHARED_FOLDERS,
});

/**
 * The host by layer: the frame (layout/) composes the session and federation parts the way a
 * page composes features; the app is the routes and what starts them.
 */
const HOST_LAYERS = {
  app: ['app', 'bootstrap.tsx', 'index.ts'],
  pages: ['pages', 'layout'],
  units: ['session', 'federation'],
  shared: SHARED_FOLDERS,
};

/**
 * A folder or source file at the top of src/ that no layer names would escape every zone below:
 * the lint refuses to start until it is given one here.
 */
function checkedLayers(pkg, layers, parents = []) {
  const named = new Set([
    ...Object.values(layers).flatMap((paths) => paths.map((entry) => entry.split('/')[0])),
    ...parents,
    ...TEST_FOLDERS,
  ]);
  const unnamed = readdirSync(path.join(ROOT, pkg, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || /\.tsx?$/.test(entry.name))
    .filter((entry) => !named.has(entry.name))
    .map((entry) => `${pkg}/src/${entry.name}`);
  if (unnamed.length > 0) {
    throw new Error(`eslint.config.js: give ${unnamed.join(', ')} a layer (FRONT_END_LAYERS).`);
  }
  return layers;
}

const FRONT_END_LAYERS = Object.fromEntries(
  FRONT_ENDS.map((pkg) => [
    pkg,
    pkg === 'host-shell'
      ? checkedLayers(pkg, HOST_LAYERS)
      : checkedLayers(pkg, remoteLayers(pkg), UNIT_FOLDERS),
  ]),
);

/** Relative paths out of a package (another remote, the host, the server): the SDK is the way. */
const ownPackageZone = (pkg) => ({
  target: `${pkg}/src`,
  from: '.',
  except: [`./${pkg}`, './shared-sdk', './node_modules'],
  message: 'A front end shares with the others only through @kol/shared-sdk.',
});

function layerZones(pkg, layers) {
  const at = (paths) => paths.map((entry) => `${pkg}/src/${entry}`);
  const zones = [
    {
      target: at(layers.shared),
      from: at([...layers.units, ...layers.pages, ...layers.app]),
      message:
        'components, hooks, lib and flow-kit sit under every feature, flow and page: move what they need down, or take it as a prop.',
    },
    {
      target: at(layers.units),
      from: at([...layers.pages, ...layers.app]),
      message: 'Pages compose features, never the other way round.',
    },
    {
      target: at(layers.pages),
      from: at(layers.app),
      message: 'The app composes pages, never the other way round.',
    },
    ...layers.units.map((unit) => ({
      target: `${pkg}/src/${unit}`,
      from: at(layers.units.filter((other) => other !== unit)),
      message:
        'A feature (or flow) never imports another one: move the shared part down to components, hooks, lib or flow-kit, or compose both at the page.',
    })),
    ownPackageZone(pkg),
  ];
  // The rule's schema wants at least one path in each list (a remote with one feature has no other).
  return zones.filter((zone) => zone.target.length > 0 && zone.from.length > 0);
}

const FRONT_END_ZONES = FRONT_ENDS.flatMap((pkg) => layerZones(pkg, FRONT_END_LAYERS[pkg]));
const FRONT_END_TEST_ZONES = FRONT_ENDS.map(ownPackageZone);
const FRONT_END_SOURCES = FRONT_ENDS.map((pkg) => `${pkg}/src/**/*.{ts,tsx}`);
const FRONT_END_TESTS = FRONT_ENDS.flatMap((pkg) =>
  TEST_FOLDERS.map((folder) => `${pkg}/src/**/${folder}/**`),
);

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
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Only the front ends hold React: the hooks rules run the React Compiler's analysis on
    // every file they see (60 % of the whole lint when they also read the server's files).
    files: ['{shared-sdk,host-shell,mfe-*}/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Tests keep the rules of hooks; the compiler's rules (components made once, pure renders,
    // refs, memoization) judge code that ships, and their analysis is most of the lint's time.
    files: ['{shared-sdk,host-shell,mfe-*}/**/__tests__/**/*.{ts,tsx}', '**/src/testing/**'],
    rules: Object.fromEntries(
      Object.keys(reactHooks.configs.recommended.rules)
        .filter(
          (rule) => !['react-hooks/rules-of-hooks', 'react-hooks/exhaustive-deps'].includes(rule),
        )
        .map((rule) => [rule, 'off']),
    ),
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
    files: FRONT_END_SOURCES,
    plugins: { 'import-x': importX },
    settings: {
      // Resolves .tsx, and @kol/shared-sdk through its package exports (the SDK's src).
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] }),
      ],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      // An import resolved outside the file's package (the SDK, node_modules) is external and
      // not followed: none of them imports a front end back, so no cycle runs through them.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: FRONT_END_ZONES },
      ],
    },
  },
  {
    // An icon is a drawing, not a name: antd's icons name themselves in English (「bell」,
    // 「reload」), which a screen reader reads into the control's Chinese name (the accessibility
    // audit's label-content-name-mismatch). The control carries the name, its text or aria-label.
    files: FRONT_END_SOURCES,
    ignores: FRONT_END_TESTS,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "JSXOpeningElement[name.name=/(Outlined|Filled|TwoTone)$/]:not(:has(JSXAttribute[name.name='aria-hidden']))",
          message:
            '图标须加 aria-hidden，由按钮的文字或 aria-label 命名（icons are aria-hidden; the control names itself）.',
        },
      ],
    },
  },
  {
    // Tests may reach across layers to what they test, never out of their package.
    files: FRONT_END_TESTS,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: FRONT_END_TEST_ZONES },
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
