module.exports = require('../webpack.preset.cjs')({
  dir: __dirname,
  name: 'mfe_writing',
  exposes: { './App': './src/app.tsx' },
  routes: 'routes.json',
});
