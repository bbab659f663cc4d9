module.exports = {
  ...require('../jest.preset.cjs')({
    environment: 'jsdom',
    rootDir: __dirname,
    setupFilesAfterEnv: [
      '<rootDir>/../shared-sdk/src/testing/poll-errors.ts',
      '<rootDir>/src/testing/setup-tests.ts',
    ],
  }),
  // The icons a page reads, not the whole package (see the module).
  moduleNameMapper: {
    '^@ant-design/icons$': '<rootDir>/../shared-sdk/src/testing/antd-icons.cjs',
  },
};
