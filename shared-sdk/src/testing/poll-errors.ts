// A setup file of the page tests (each package's jest.config.cjs lists it after the preset's).
import { configure, getConfig } from '@testing-library/react';

type Config = ReturnType<typeof getConfig> & { _disableExpensiveErrorDiagnostics?: boolean };

// A failed getBy* query prints the whole document into its error, and findBy* and waitFor retry
// their query until it passes: every failed retry paid for a print of antd's large tree that
// nobody reads (seconds of a page test file). While a wait polls (Testing Library marks that with
// `_disableExpensiveErrorDiagnostics`), its failures skip the print; a wait that gives up still
// shows the document, which waitFor adds to its last error when it times out.
const { getElementError } = getConfig();
configure({
  getElementError(message, container) {
    if (!(getConfig() as Config)._disableExpensiveErrorDiagnostics) {
      return getElementError(message, container);
    }
    const error = new Error(message ?? '');
    error.name = 'TestingLibraryElementError';
    return error;
  },
});
