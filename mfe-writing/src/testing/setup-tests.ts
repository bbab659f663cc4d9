// Testing Library's DOM matchers (toBeInTheDocument, …) on @jest/globals' expect.
import '@testing-library/jest-dom/jest-globals';
import { installNodeEventSource } from '@kol/shared-sdk/testing';

// The SDK's streamGeneration needs an EventSource; jsdom has none.
installNodeEventSource();

// findBy/waitFor and each test get the preset's room (jest.preset.cjs, jest.jsdom-after-env.cjs).
