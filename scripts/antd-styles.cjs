// Writes the antd styles of the given components, in the product's theme, as one CSS file on
// stdout: what antd's CSS-in-JS would otherwise compute in the browser at the first render of
// each (a first load of `/` spent 50 to 100 ms of a slow machine's main thread on it). The file
// ends with antd's cache-path map (`.data-ant-cssinjs-cache-path{content:"…"}`), from which
// `@ant-design/cssinjs` learns at its first render which styles a CSS file already holds and
// skips them; a component not listed is styled at run time as before.
//
//   node scripts/antd-styles.cjs <app folder> Layout Layout.Sider Menu Button …
//
// Run by webpack.preset.cjs (`antdStyles`) in a process of its own: the class names carry a hash
// whose prefix depends on NODE_ENV when antd is loaded, and must be the production build's.
process.env.NODE_ENV = 'production';
const path = require('node:path');

const [dir, ...names] = process.argv.slice(2);
if (!dir || names.length === 0) {
  console.error('usage: node scripts/antd-styles.cjs <app folder> <Component>...');
  process.exit(2);
}
// The app's own antd and React, as its build resolves them.
const load = (name) => require(require.resolve(name, { paths: [path.resolve(dir)] }));
const React = load('react');
const { renderToString } = load('react-dom/server');
const antd = load('antd');
const { createCache, extractStyle, StyleProvider } = load('@ant-design/cssinjs');
const kolTheme = require('../shared-sdk/src/ui/kol-theme.json');

const components = names.map((name) => {
  const component = name.split('.').reduce((owner, key) => owner?.[key], antd);
  if (!component) throw new Error(`antd has no component ${name}`);
  // Every antd component registers its styles when it renders, whatever its props.
  return React.createElement(component, { key: name }, React.createElement('span'));
});
const cache = createCache();
renderToString(
  React.createElement(
    StyleProvider,
    { cache },
    React.createElement(
      antd.ConfigProvider,
      {
        theme: {
          algorithm: kolTheme.dark ? antd.theme.darkAlgorithm : antd.theme.defaultAlgorithm,
          token: kolTheme.token,
        },
      },
      ...components,
    ),
  ),
);
// Only the component styles: the theme's CSS variables stay computed at run time (their class
// name comes from React's useId, which differs between here and the browser).
process.stdout.write(extractStyle(cache, { plain: true, types: 'style' }));
