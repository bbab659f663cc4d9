const preset = require('../jest.preset.cjs')({ environment: 'node', rootDir: __dirname });

module.exports = {
  ...preset,
  testMatch: ['<rootDir>/tests/**/*.test.ts'],
  // One platform for the whole run: built if needed, started on a free port with fresh data.
  globalSetup: '<rootDir>/support/global-setup.ts',
  globalTeardown: '<rootDir>/support/global-teardown.ts',
  // A browser test waits on real pages; these are limits against hangs, not speed targets
  // (pages wait up to 90 s per step, support/platform.ts: the apps' tests run beside them).
  testTimeout: 180_000,
};
