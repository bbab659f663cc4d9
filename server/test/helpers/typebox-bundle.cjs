// typebox 1 ships as some 700 ES modules. jest transforms and loads each one again in every
// test file, about half a second a file. The tests load one CommonJS bundle of the same
// package instead (jest.config.cjs maps every `typebox` import to it), built once by
// global-setup.ts. One bundle for all the entry points, so they share typebox's state (the
// format registry) as the separate modules do.
const { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const ENTRIES = ['compile', 'error', 'format', 'guard', 'schema', 'system', 'type', 'value'];
// The package's folder from its entry (build/index.mjs): its exports do not list package.json.
const packageDir = path.dirname(path.dirname(require.resolve('typebox')));
const version = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;
// Keyed by the version and by this file, so a changed list of entries makes a new bundle.
const self = require('node:crypto')
  .createHash('sha256')
  .update(readFileSync(__filename))
  .digest('hex')
  .slice(0, 12);
const dir = path.join(
  __dirname,
  '..',
  '..',
  'node_modules',
  '.cache',
  `kol-typebox-${version}-${self}`,
);

/** moduleNameMapper entries: `typebox` and each `typebox/<entry>` to its part of the bundle. */
const moduleNameMapper = {
  '^typebox$': path.join(dir, 'index.cjs'),
  [`^typebox/(${ENTRIES.join('|')})$`]: path.join(dir, '$1.cjs'),
};

/** Writes a file whole under its name: other jest runs on the machine may read it meanwhile. */
function writeWhole(file, content) {
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, content);
  renameSync(part, file);
}

async function buildTypeboxBundle() {
  const bundle = path.join(dir, 'bundle.cjs');
  if (existsSync(bundle)) return;
  mkdirSync(dir, { recursive: true });
  const names = ['index', ...ENTRIES];
  const { build } = require('esbuild');
  const result = await build({
    stdin: {
      contents: names
        .map((name) => `export * as ${name} from 'typebox${name === 'index' ? '' : `/${name}`}';`)
        .join('\n'),
      resolveDir: __dirname,
    },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    write: false,
  });
  // Each entry as an ES module's exports, so `import Type from 'typebox'` finds its default.
  for (const name of names) {
    writeWhole(
      path.join(dir, `${name}.cjs`),
      `module.exports = { __esModule: true, ...require('./bundle.cjs').${name} };\n`,
    );
  }
  writeWhole(bundle, result.outputFiles[0].contents);
}

module.exports = { moduleNameMapper, buildTypeboxBundle };
