module.exports = require('../webpack.preset.cjs')({
  dir: __dirname,
  name: 'mfe_video',
  exposes: { './App': './src/app.tsx' },
  routes: 'routes.json',
});
