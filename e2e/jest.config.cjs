const preset = require('../jest.preset.cjs')({ environment: 'node', rootDir: __dirname });

module.exports = {
  ...preset,
  testMatch: ['<rootDir>/tests/**/*.test.ts'],
  // One platform for the whole run: built if needed, started on a free port with fresh data.
  globalSetup: '<rootDir>/support/global-setup.ts',
  globalTeardown: '<rootDir>/support/global-teardown.ts',
  // A browser test waits on real pages; these are limits against hangs, not speed targets.
  testTimeout: 60_000,
};
