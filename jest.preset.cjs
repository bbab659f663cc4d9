// One jest preset for every package: swc instead of babel/ts-jest (several times faster on 2 cores).
// Each package's jest.config.cjs calls this with its environment.
const path = require('node:path');

/** @param {{ environment?: 'node' | 'jsdom', rootDir: string, setupFiles?: string[] }} options */
module.exports = function kolJestConfig({ environment = 'node', rootDir, setupFiles = [] }) {
  return {
    rootDir,
    testEnvironment: environment,
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
    // jotai 3, typebox 1 and cookie 2 (under fastify) ship ESM only: they go through the transform too.
    transformIgnorePatterns: ['/node_modules/\\.pnpm/(?!(jotai|typebox|cookie)@)'],
    moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
    setupFiles: [
      ...(environment === 'jsdom' ? [path.join(__dirname, 'jest.jsdom-setup.cjs')] : []),
      ...setupFiles,
    ],
  };
};
