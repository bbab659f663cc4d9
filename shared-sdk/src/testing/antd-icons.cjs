// `@ant-design/icons` as the page tests load it (each package's jest.config.cjs maps the bare
// name here). The package's own index requires every one of its ~830 icons and their SVG
// definitions, some 1,700 modules and about a second of every test file that renders a page,
// where webpack keeps only the few icons a page imports. This module has the same exports and
// requires an icon the first time a component reads it.
const fs = require('node:fs');
const path = require('node:path');

// The package of the remote under test (this file's own package does not depend on it).
const lib = path.join(
  path.dirname(
    require.resolve('@ant-design/icons/package.json', { paths: [process.cwd(), __dirname] }),
  ),
  'lib',
);

const exported = {
  default: () => require(path.join(lib, 'components/Icon')).default,
  IconProvider: () => require(path.join(lib, 'components/Context')).default.Provider,
  createFromIconfontCN: () => require(path.join(lib, 'components/IconFont')).default,
  getTwoToneColor: () => require(path.join(lib, 'components/twoTonePrimaryColor')).getTwoToneColor,
  setTwoToneColor: () => require(path.join(lib, 'components/twoTonePrimaryColor')).setTwoToneColor,
};
for (const file of fs.readdirSync(path.join(lib, 'icons'))) {
  if (!file.endsWith('.js') || file === 'index.js') continue;
  const name = file.slice(0, -'.js'.length);
  exported[name] = () => require(path.join(lib, 'icons', file)).default;
}

Object.defineProperty(exports, '__esModule', { value: true });
for (const [name, get] of Object.entries(exported)) {
  Object.defineProperty(exports, name, { enumerable: true, get });
}
