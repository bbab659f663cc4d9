const preset = require('../jest.preset.cjs')({ environment: 'node', rootDir: __dirname });

module.exports = {
  ...preset,
  // The PostgreSQL of TEST_DATABASE_URL, or an embedded PGlite per test file opened from one
  // fresh data directory made here (test/helpers/test-app.ts).
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  testTimeout: 30_000,
};
