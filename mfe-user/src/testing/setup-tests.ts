// Testing Library's DOM matchers (toBeInTheDocument, …) on @jest/globals' expect.
import '@testing-library/jest-dom/jest-globals';
