module.exports = require('../webpack.preset.cjs')({
  dir: __dirname,
  name: 'host_shell',
  html: { title: 'KOL Studio' },
  // The host's files are served from the site root; its routes are deep paths.
  publicPath: '/',
  runtimePlugins: [require.resolve('./src/federation/runtime-plugin.ts')],
});
