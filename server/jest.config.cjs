const preset = require('../jest.preset.cjs')({ environment: 'node', rootDir: __dirname });

module.exports = {
  ...preset,
  // One database for the whole run, started in jest's own process (PGlite's WebAssembly stays
  // out of the test sandboxes) or the PostgreSQL of TEST_DATABASE_URL.
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  // PGlite is a single PostgreSQL session (SET search_path is shared by every connection),
  // so test files take turns against it; a real PostgreSQL can take them in parallel.
  ...(process.env.TEST_DATABASE_URL && process.env.KOL_TEST_DB !== 'pglite'
    ? {}
    : { maxWorkers: 1 }),
  testTimeout: 30_000,
};
