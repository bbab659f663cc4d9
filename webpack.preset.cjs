// One webpack + Module Federation setup for the host and every remote. Each package's
// webpack.config.cjs calls this with its name and what it exposes.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const CompressionPlugin = require('compression-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const { sources } = require('webpack');

/**
 * Singletons every app shares: what holds state or context across the host and the remotes (one
 * React, one router, one jotai store, one query cache, one antd style cache) and the SDK. Nothing else: a shared
 * package travels whole, since no build knows what the others use. antd and its icons are
 * bundled by each app, tree-shaken to the components and icons it imports (the whole antd was
 * 330 KB and the whole icon set 138 KB of brotli on every first load); each remote renders in
 * a ConfigProvider of its own with the one theme (`createRemoteApp`, SDK `ui`), and the shared
 * `@ant-design/cssinjs` keeps one style cache, so a component used by two apps is styled once.
 */
const SINGLETONS = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  // The router through the SDK's curated module: the parts of react-router the apps use.
  '@kol/shared-sdk/router',
  '@ant-design/cssinjs',
  'jotai',
  // One query cache for every app (SDK state entry): its context and client are module state.
  '@tanstack/react-query',
  'axios',
  '@kol/shared-sdk',
  '@kol/shared-sdk/state',
];

/**
 * The semver range an app requires for a shared package. `catalog:` and `workspace:*` are no
 * semver, so those require the version installed for the app, or a newer minor.
 */
function requiredVersion(dir, pkg, name) {
  const base = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0];
  const range = pkg.dependencies?.[base] ?? pkg.peerDependencies?.[base];
  if (!range) throw new Error(`${pkg.name} shares ${name} but does not depend on ${base}`);
  if (!range.startsWith('catalog:') && !range.startsWith('workspace:')) return range;
  // pnpm links every direct dependency into the app's own node_modules.
  const file = path.join(dir, 'node_modules', base, 'package.json');
  return `^${JSON.parse(fs.readFileSync(file, 'utf8')).version}`;
}

/**
 * The host provides its singletons eagerly: they travel in its one first-load file and its code
 * needs no async boundary before them. The remotes' stay lazy, so a remote brings none of them
 * when the host's are there (`loaded-first`).
 */
function sharedConfig(dir, pkg, eager) {
  return Object.fromEntries(
    SINGLETONS.map((name) => [
      name,
      { singleton: true, eager, requiredVersion: requiredVersion(dir, pkg, name) },
    ]),
  );
}

/**
 * Brotli and gzip copies beside every text file of a production build (`x.js.br`, `x.js.gz`),
 * made once here so the server sends them as they are (`Content-Encoding`) and no request pays
 * for compression. Files under 1 KB, or that shrink by less than 10 %, keep no copy.
 */
const COMPRESSIBLE = /\.(js|css|html|json|svg|txt)$/;
function precompressed() {
  const common = { test: COMPRESSIBLE, threshold: 1024, minRatio: 0.9 };
  return [
    new CompressionPlugin({
      ...common,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
    }),
    new CompressionPlugin({
      ...common,
      filename: '[path][base].gz',
      algorithm: 'gzip',
      compressionOptions: { level: 9 },
    }),
  ];
}

/** Our TypeScript and TSX through swc (dependencies come compiled). */
function swcRule(production) {
  return {
    test: /\.[cm]?[jt]sx?$/,
    exclude: /node_modules/,
    use: {
      loader: 'swc-loader',
      options: {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', development: !production } },
          target: 'es2020',
        },
      },
    },
  };
}

/** Emits the route claims of a remote beside its manifest, as `kol-routes.json`. */
class RouteClaimsPlugin {
  constructor(file) {
    this.file = file;
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('RouteClaimsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        {
          name: 'RouteClaimsPlugin',
          stage: compilation.constructor.PROCESS_ASSETS_STAGE_ADDITIONAL,
        },
        () => {
          compilation.fileDependencies.add(this.file);
          const claims = JSON.parse(fs.readFileSync(this.file, 'utf8'));
          compilation.emitAsset(
            'kol-routes.json',
            new sources.RawSource(JSON.stringify(claims, null, 2)),
          );
        },
      );
    });
  }
}

/**
 * The class whose `content` carries an app's antd cache-path map (scripts/antd-styles.cjs); the
 * host reads it under the same name (host-shell/src/federation/antd-styles.ts).
 */
const antdStylesMapClass = (name) => `kol-antd-styles-${name}`;

/**
 * The antd styles of an app's components, written at build time by scripts/antd-styles.cjs in
 * the product's theme, so the browser reads them instead of computing them at the first render.
 * The host's (`antdStyles`: what its first load shows) go to `antd.<hash>.css`, linked from
 * index.html before the scripts; a remote's (every component its sources import) to
 * `antd-styles.css` beside its manifest, which the host loads with the remote
 * (host-shell/src/federation/antd-styles.ts). A component not covered is styled at run time.
 */
class AntdStylesPlugin {
  /** @param {{ dir: string, name: string, components: string[] | 'sources', html: boolean }} options */
  constructor(options) {
    this.options = options;
  }
  apply(compiler) {
    const plugin = 'AntdStylesPlugin';
    const { dir, name, components, html } = this.options;
    compiler.hooks.thisCompilation.tap(plugin, (compilation) => {
      let file = null;
      compilation.hooks.processAssets.tap(
        { name: plugin, stage: compilation.constructor.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const script = path.join(__dirname, 'scripts', 'antd-styles.cjs');
          compilation.fileDependencies.add(script);
          compilation.fileDependencies.add(
            path.join(__dirname, 'shared-sdk', 'src', 'ui', 'kol-theme.json'),
          );
          const args = components === 'sources' ? ['--sources'] : components;
          const css = execFileSync(
            process.execPath,
            [script, dir, antdStylesMapClass(name), ...args],
            { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
          );
          const hash = createHash('sha256').update(css).digest('hex').slice(0, 8);
          // A remote's release folder is versioned: the name can stay the same.
          file = html ? `antd.${hash}.css` : 'antd-styles.css';
          compilation.emitAsset(file, new sources.RawSource(css));
        },
      );
      if (!html) return;
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap(plugin, (data) => {
        if (!file) return data;
        const href = `${compilation.outputOptions.publicPath}${file}`;
        data.headTags.unshift(
          HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'stylesheet', href }),
        );
        return data;
      });
    });
  }
}

/**
 * The port each remote's dev server (`pnpm --filter @kol/mfe-<name> dev`) listens on: fixed, so
 * a developer's `KOL_REMOTE_OVERRIDES` value stays the same from one day to the next. Listed in
 * the root README; `webpack serve --port N` picks another for one run.
 */
const DEV_PORTS = {
  mfe_writing: 3101,
  mfe_video: 3102,
  mfe_works: 3103,
  mfe_user: 3104,
};

/**
 * `webpack serve --mode development` of one remote, for the platform to load it in place of its
 * release (the host's `KOL_REMOTE_OVERRIDES`). The platform page is another origin, so every
 * answer carries CORS headers (the manifest is fetched, the chunks are scripts). The HMR client
 * is told its socket's address outright: it runs inside the platform's page, whose own address
 * says nothing about where the dev server is. Files stay in memory: `dist/` keeps the
 * production build that `pnpm start` releases.
 */
function devServerConfig(name) {
  const port = DEV_PORTS[name];
  if (!port) throw new Error(`${name} has no dev server port in webpack.preset.cjs DEV_PORTS`);
  return {
    port,
    host: 'localhost',
    hot: true,
    // A change HMR cannot apply (no module accepts it) reloads the page instead.
    liveReload: true,
    static: false,
    // Named outright: webpack-dev-server refuses a cross-site script load (the platform's page
    // is another site) unless the Host is listed here; loopback names only, against DNS rebinding.
    allowedHosts: ['localhost', '127.0.0.1'],
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
      'Access-Control-Allow-Headers': '*',
    },
    client: {
      // Host and port left out: the dev server's own (`--port` included).
      webSocketURL: { protocol: 'ws', pathname: '/ws' },
      // The platform shows its own error page for a remote that fails; no full-screen overlay
      // over the whole platform for a warning.
      overlay: { errors: true, warnings: false },
    },
    devMiddleware: { writeToDisk: false },
  };
}

/**
 * @param {{
 *   dir: string,                         // the package folder (__dirname)
 *   name: string,                        // federation name: host_shell, mfe_user, ...
 *   exposes?: Record<string, string>,    // remotes: './App' and small widgets
 *   runtimePlugins?: string[],           // host: files of its federation runtime plugins
 *   html?: { title: string, favicon?: string }, // host: emit index.html (and the icon)
 *   antdStyles?: string[],               // host: antd components styled ahead (AntdStylesPlugin)
 *   routes?: string,                     // remotes: the route-claims file
 *   publicPath?: string,                 // default 'auto' (relative to the served entry)
 * }} options
 */
module.exports = function kolWebpackConfig(options) {
  const pkg = JSON.parse(fs.readFileSync(path.join(options.dir, 'package.json'), 'utf8'));
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    return {
      mode: production ? 'production' : 'development',
      context: options.dir,
      entry: options.html ? { main: './src/index.ts' } : {},
      // Not an eval source map: the platform's page forbids eval (server/src/routes/host.ts).
      devtool: production ? false : 'cheap-module-source-map',
      output: {
        path: path.join(options.dir, 'dist'),
        // Chunks load relative to wherever the entry was served from, so one build works
        // under any versioned release path.
        publicPath: options.publicPath ?? 'auto',
        // Content hashes only where a release is cached for good; HMR rewrites files in place.
        filename: production ? '[name].[contenthash:8].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
        uniqueName: options.name,
        clean: true,
      },
      resolve: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
      // A remote's development build runs on the host's React, a production one (shared
      // singleton): React's development JSX runtime fails there (`dispatcher.getOwner`), so a
      // remote compiles JSX for the production runtime in every mode.
      module: { rules: [swcRule(production || !options.html)] },
      cache: {
        type: 'filesystem',
        buildDependencies: { config: [__filename, path.join(options.dir, 'webpack.config.cjs')] },
      },
      optimization: {
        minimizer: [new TerserPlugin({ minify: TerserPlugin.swcMinify })],
      },
      performance: { hints: false },
      ...(options.html ? {} : { devServer: devServerConfig(options.name) }),
      plugins: [
        new ModuleFederationPlugin({
          name: options.name,
          filename: 'remoteEntry.js',
          exposes: options.exposes ?? {},
          shared: sharedConfig(options.dir, pkg, Boolean(options.html)),
          shareStrategy: 'loaded-first',
          runtimePlugins: options.runtimePlugins ?? [],
          manifest: true,
          // Types are shared through the SDK package, not generated per build (7 to 10 s).
          dts: false,
          // Every app runs in the browser: the runtime leaves out its Node loading code.
          experiments: { optimization: { target: 'web' } },
        }),
        ...(options.html
          ? [
              new HtmlWebpackPlugin({
                template: './src/index.html',
                title: options.html.title,
                // Copied beside index.html and linked from it: a browser asks for /favicon.ico
                // on every load, and the server serves the host's files from the site root.
                ...(options.html.favicon ? { favicon: options.html.favicon } : {}),
                chunks: ['main'],
              }),
            ]
          : []),
        // The host's first load, and every remote's components.
        ...(production && (options.antdStyles || !options.html)
          ? [
              new AntdStylesPlugin({
                dir: options.dir,
                name: options.name,
                components: options.antdStyles ?? 'sources',
                html: Boolean(options.html),
              }),
            ]
          : []),
        ...(options.routes ? [new RouteClaimsPlugin(path.join(options.dir, options.routes))] : []),
        ...(production ? precompressed() : []),
      ],
    };
  };
};

// The pieces bench/monolith/webpack.config.cjs builds the same sources with, so its bundle differs
// from the apps' builds by Module Federation alone.
module.exports.swcRule = swcRule;
module.exports.AntdStylesPlugin = AntdStylesPlugin;
module.exports.precompressed = precompressed;
module.exports.DEV_PORTS = DEV_PORTS;
