// Runs once the test framework is installed (setupFilesAfterEnv): requiring Testing Library
// earlier would miss jest's afterEach, and with it the automatic cleanup between tests.
// findBy*/waitFor give up after 1 s by default. The page tests wait on real loopback HTTP
// calls; on a 2-core machine busy with other suites one such wait was seen to take longer.
{
  let testingLibrary = null;
  try {
    testingLibrary = require.resolve('@testing-library/react', { paths: [process.cwd()] });
  } catch {
    // A jsdom package that does not render React has nothing to configure.
  }
  if (testingLibrary) require(testingLibrary).configure({ asyncUtilTimeout: 5_000 });
}
