const preset = require('../jest.preset.cjs')({ environment: 'node', rootDir: __dirname });

// The engine, provider and script tests open no database (ffmpeg, espeak, canvas, text, fake
// providers): run again on PostgreSQL they would test nothing new, so that run leaves them out.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL) && process.env.KOL_TEST_DB !== 'pglite';

module.exports = {
  ...preset,
  ...(onPostgres
    ? {
        testPathIgnorePatterns: [
          '/node_modules/',
          '<rootDir>/test/video/engine/',
          '<rootDir>/test/video/pipelines/',
          '<rootDir>/test/providers/',
        ],
      }
    : {}),
  // The PostgreSQL of TEST_DATABASE_URL, or an embedded PGlite per test file opened from one
  // fresh data directory made here (test/helpers/test-app.ts).
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  testTimeout: 30_000,
};
