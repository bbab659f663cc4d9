// The host and every remote built as ONE bundle, without Module Federation: the baseline that
// bench/frontend.mjs compares the federated build against (issue 14: within 1.10x). The same
// sources, loaders, minifier and compressed copies as webpack.preset.cjs; each remote's page is
// a lazy chunk, as a remote is loaded on demand. Built by `node bench/frontend.mjs` (unless
// `--no-monolith`).
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const { AntdStylesPlugin, precompressed, swcRule } = require('../../webpack.preset.cjs');

const root = path.resolve(__dirname, '..', '..');
const host = path.join(root, 'host-shell');

module.exports = {
  mode: 'production',
  context: host,
  entry: { main: './src/index.ts' },
  output: {
    path: path.join(root, 'bench', 'out', 'monolith'),
    publicPath: '/',
    filename: '[name].[contenthash:8].js',
    chunkFilename: '[name].[contenthash:8].js',
    clean: true,
  },
  resolve: {
    extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    // Packages resolve from the host's node_modules, then each remote's (pnpm links them there).
    modules: [
      'node_modules',
      path.join(host, 'node_modules'),
      ...['mfe-user', 'mfe-writing', 'mfe-video', 'mfe-works'].map((name) =>
        path.join(root, name, 'node_modules'),
      ),
    ],
    alias: {
      '@module-federation/enhanced/runtime$': path.join(__dirname, 'federation-shim.ts'),
    },
  },
  module: { rules: [swcRule(true)] },
  optimization: { minimizer: [new TerserPlugin({ minify: TerserPlugin.swcMinify })] },
  performance: { hints: false },
  plugins: [
    new HtmlWebpackPlugin({ template: './src/index.html', title: 'KOL Studio' }),
    new AntdStylesPlugin({
      dir: host,
      name: 'host_shell',
      components: require(path.join(host, 'webpack.config.cjs')).options.antdStyles,
      html: true,
    }),
    ...precompressed(),
  ],
};
