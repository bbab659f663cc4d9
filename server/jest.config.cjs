const preset = require('../jest.preset.cjs')({ environment: 'node', rootDir: __dirname });
const typebox = require('./test/helpers/typebox-bundle.cjs');

// What the PostgreSQL run leaves out (the PGlite run has everything):
// - the suites that open no database (ffmpeg, espeak, canvas, text, fake providers): run again on
//   PostgreSQL they would test nothing new;
// - the per-type rendering suites: their minutes go to ffmpeg and espeak, and what they ask of the
//   database (a work, its task and stages, a quota count) is the same calls the API, task,
//   no-lost-work and works-editor suites make on PostgreSQL. Those stay, with every db/, api/,
//   tasks/, writing/ and roles/ suite but one;
// - the book bombs (writing/book-bombs): their time goes to the parser's limits in its worker
//   thread, and what they ask of the database is a session, as every api/ suite does.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL) && process.env.KOL_TEST_DB !== 'pglite';
const RENDERING_SUITES = [
  'anime',
  'anime-flow',
  'comics-pipeline',
  'convert',
  'cut-video',
  'decompression',
  'frames-artifact',
  'images',
  'market',
  'opera',
  'quality-report',
  'scroll',
];
const WITHOUT_DATABASE = [
  '<rootDir>/test/env.test.ts',
  // A server process on its own embedded database, whatever the run's database.
  '<rootDir>/test/ops/shutdown.test.ts',
  '<rootDir>/test/providers/',
  '<rootDir>/test/releases/shared-check.test.ts',
  '<rootDir>/test/releases/store-files.test.ts',
  '<rootDir>/test/storage/',
  '<rootDir>/test/tasks/eta.test.ts',
  '<rootDir>/test/text/',
  '<rootDir>/test/video/engine/',
  '<rootDir>/test/video/export/melt.test.ts',
  '<rootDir>/test/video/library/(ambient|catalogs|shared-library|vocabulary).test.ts',
  '<rootDir>/test/video/pipelines/',
  '<rootDir>/test/writing/(local-engine|local-engine-sentences|openai-provider).test.ts',
];

module.exports = {
  ...preset,
  // typebox as one bundle (built by global-setup.ts), not jest-transformed again.
  moduleNameMapper: typebox.moduleNameMapper,
  transformIgnorePatterns: [...preset.transformIgnorePatterns, '/node_modules/\\.cache/'],
  ...(onPostgres
    ? {
        testPathIgnorePatterns: [
          '/node_modules/',
          ...WITHOUT_DATABASE,
          `<rootDir>/test/video/(${RENDERING_SUITES.join('|')}).test.ts`,
          '<rootDir>/test/writing/book-bombs.test.ts',
        ],
      }
    : {}),
  // The PostgreSQL of TEST_DATABASE_URL, or an embedded PGlite per test file opened from one
  // fresh data directory made here (test/helpers/test-app.ts).
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  // Also the limit of every beforeAll: an app's setup (its embedded database opened from the
  // dump, migrations, a user) took over 30 s on a slowed 2-core machine, failing a whole file
  // (upload.test.ts) whose tests then never ran. A limit against hangs, not a target.
  testTimeout: 60_000,
};
