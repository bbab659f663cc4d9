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
  // 10 s: a limit against hangs, not a speed target (a page waiting on two or three calls on a
  // core shared with the server's suite was seen to need over 5 s).
  if (testingLibrary) require(testingLibrary).configure({ asyncUtilTimeout: 10_000 });
}
