// Testing Library's DOM matchers (toBeInTheDocument, …) on @jest/globals' expect.
import '@testing-library/jest-dom/jest-globals';
import { jest } from '@jest/globals';
import { configure } from '@testing-library/react';
import { installNodeEventSource } from '@kol/shared-sdk/testing';

// The SDK's streamGeneration needs an EventSource; jsdom has none.
installNodeEventSource();

// antd pages are large under jsdom: give findBy/waitFor and each test room.
configure({ asyncUtilTimeout: 4000 });
jest.setTimeout(30_000);
