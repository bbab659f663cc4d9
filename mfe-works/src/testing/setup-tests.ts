// Testing Library's DOM matchers (toBeInTheDocument, …) on @jest/globals' expect.
import '@testing-library/jest-dom/jest-globals';

// findBy/waitFor and each test get the preset's room (jest.preset.cjs, jest.jsdom-after-env.cjs).
