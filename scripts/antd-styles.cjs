// Writes the antd styles of an app's components, in the product's theme, as one CSS file on
// stdout: what antd's CSS-in-JS would otherwise compute in the browser at the first render of
// each (50 to 100 ms of a slow machine's main thread for the frame of `/`, as much again for a
// remote's first page). The file ends with a rule whose `content` is antd's cache-path map of
// those styles, on the class `<map class>`; the host reads it and hands it to
// `@ant-design/cssinjs`, which then skips computing them (host-shell/src/federation/antd-styles.ts).
// A component not listed is styled at run time as before.
//
//   node scripts/antd-styles.cjs <app folder> <map class> Layout Layout.Sider Menu Button …
//   node scripts/antd-styles.cjs <app folder> <map class> --sources
//
// `--sources` takes every antd component the app's `src/` imports (and the `Name.Part`
// components it uses, such as Input.TextArea). Run by webpack.preset.cjs (`AntdStylesPlugin`) in
// a process of its own: the class names carry a hash whose prefix depends on NODE_ENV when antd
// is loaded, and must be the production build's.
process.env.NODE_ENV = 'production';
const fs = require('node:fs');
const path = require('node:path');

const [dir, mapClass, ...rest] = process.argv.slice(2);
if (!dir || !mapClass || rest.length === 0) {
  console.error(
    'usage: node scripts/antd-styles.cjs <app folder> <map class> (--sources | <Component>...)',
  );
  process.exit(2);
}
// The app's own antd and React, as its build resolves them.
const load = (name) => require(require.resolve(name, { paths: [path.resolve(dir)] }));
const React = load('react');
const { renderToString } = load('react-dom/server');
const antd = load('antd');
const { createCache, extractStyle, StyleProvider } = load('@ant-design/cssinjs');
const kolTheme = require('../shared-sdk/src/ui/kol-theme.json');

/** The antd components the app's sources import, with the `Name.Part` ones they use. */
function componentsOfSources(srcDir) {
  const names = new Set();
  const files = fs
    .readdirSync(srcDir, { recursive: true })
    .filter((file) => /\.tsx?$/.test(file) && !file.includes('__tests__'));
  for (const file of files) {
    const text = fs.readFileSync(path.join(srcDir, file), 'utf8');
    for (const match of text.matchAll(/import\s*{([^}]*)}\s*from\s*'antd'/g)) {
      for (const part of match[1].split(',')) {
        const name = part.trim();
        if (!/^[A-Z]\w*$/.test(name)) continue; // types (`type X`), `theme`, `message`
        names.add(name);
        for (const use of text.matchAll(new RegExp(`\\b${name}\\.([A-Z]\\w*)`, 'g')))
          names.add(`${name}.${use[1]}`);
      }
    }
  }
  return [...names].sort();
}

const isComponent = (value) =>
  typeof value === 'function' || (typeof value === 'object' && value?.$$typeof !== undefined);
const names = rest[0] === '--sources' ? componentsOfSources(path.join(dir, 'src')) : rest;
const theme = {
  algorithm: kolTheme.dark ? antd.theme.darkAlgorithm : antd.theme.defaultAlgorithm,
  token: kolTheme.token,
  components: kolTheme.components,
};
const cache = createCache();
for (const name of names) {
  const component = name.split('.').reduce((owner, key) => owner?.[key], antd);
  if (!isComponent(component)) {
    if (rest[0] === '--sources') continue; // a static API such as Modal.confirm
    throw new Error(`antd has no component ${name}`);
  }
  // Every antd component registers its styles when it renders, whatever its props; one that
  // cannot render alone (outside its parent) is left to run time.
  try {
    renderToString(
      React.createElement(
        StyleProvider,
        { cache },
        React.createElement(
          antd.ConfigProvider,
          { theme },
          React.createElement(component, null, React.createElement('span')),
        ),
      ),
    );
  } catch {
    // Left to run time.
  }
}
// Only the component styles: the theme's CSS variables stay computed at run time (their class
// name comes from React's useId, which differs between here and the browser). The map's rule
// moves to the app's own class, so the files of several apps do not hide each other's.
const css = extractStyle(cache, { plain: true, types: 'style' });
const MAP_RULE = '.data-ant-cssinjs-cache-path{';
if (!css.includes(MAP_RULE)) throw new Error('antd wrote no cache-path map');
process.stdout.write(css.replace(MAP_RULE, `.${mapClass}{`));
