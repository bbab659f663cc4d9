const options = {
  dir: __dirname,
  name: 'host_shell',
  html: { title: 'KOL Studio', favicon: './src/favicon.ico' },
  // The host's files are served from the site root; its routes are deep paths.
  publicPath: '/',
  runtimePlugins: [require.resolve('./src/federation/runtime-plugin.ts')],
  // What the frame, the home page, the landing page and the posting-account prompt show.
  antdStyles: [
    'App',
    'Layout',
    'Layout.Sider',
    'Menu',
    'Button',
    'Badge',
    'Popover',
    'Dropdown',
    'Avatar',
    'Space',
    'Typography',
    'Flex',
    'Spin',
    'Empty',
    'Modal',
    'Tooltip',
  ],
};

module.exports = require('../webpack.preset.cjs')(options);
// bench/monolith builds the same pages with the same ahead-of-time styles.
module.exports.options = options;
