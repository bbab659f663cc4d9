module.exports = require('../jest.preset.cjs')({
  environment: 'jsdom',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/src/testing/setup-tests.ts'],
});
