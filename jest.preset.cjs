// One jest preset for every package: swc instead of babel/ts-jest (several times faster on 2 cores).
// Each package's jest.config.cjs calls this with its environment.
const path = require('node:path');

/**
 * @param {{ environment?: 'node' | 'jsdom', rootDir: string, setupFiles?: string[], setupFilesAfterEnv?: string[] }} options
 */
module.exports = function kolJestConfig({
  environment = 'node',
  rootDir,
  setupFiles = [],
  setupFilesAfterEnv = [],
}) {
  return {
    rootDir,
    testEnvironment: environment,
    // Page tests render antd in jsdom: on a 2-core machine running other suites beside them
    // (`pnpm test` runs two lanes side by side), a test that takes 1 s alone was seen to take
    // over 15 s. The limit is against hangs, not a speed target.
    ...(environment === 'jsdom' ? { testTimeout: 60_000 } : {}),
    testMatch: ['<rootDir>/src/**/__tests__/**/*.test.ts?(x)', '<rootDir>/test/**/*.test.ts?(x)'],
    transform: {
      '^.+\\.(t|j)sx?$|^.+\\.mjs$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic' } },
            target: 'es2022',
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    // Packages that ship ESM only go through the transform too: jotai 3, typebox 1, cookie 2
    // (under fastify) and parts of antd's scopes.
    transformIgnorePatterns: [
      '/node_modules/\\.pnpm/(?!(jotai|typebox|cookie|@ant-design\\+[^@/]+|@rc-component\\+[^@/]+)@)',
    ],
    moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
    setupFiles: [
      ...(environment === 'jsdom' ? [path.join(__dirname, 'jest.jsdom-setup.cjs')] : []),
      ...setupFiles,
    ],
    setupFilesAfterEnv: [
      ...(environment === 'jsdom'
        ? [
            path.join(__dirname, 'jest.jsdom-after-env.cjs'),
            // A wait's failed retries skip printing the document (see the module).
            path.join(__dirname, 'shared-sdk', 'src', 'testing', 'poll-errors.ts'),
          ]
        : []),
      ...setupFilesAfterEnv,
    ],
    // The icons a page reads, not the whole package (see the module).
    ...(environment === 'jsdom'
      ? {
          moduleNameMapper: {
            '^@ant-design/icons$': path.join(
              __dirname,
              'shared-sdk',
              'src',
              'testing',
              'antd-icons.cjs',
            ),
          },
        }
      : {}),
  };
};
