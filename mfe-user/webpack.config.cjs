module.exports = require('../webpack.preset.cjs')({
  dir: __dirname,
  name: 'mfe_user',
  exposes: { './App': './src/app.tsx' },
  routes: 'routes.json',
});
