// Testing Library's DOM matchers (toBeInTheDocument, …) on @jest/globals' expect.
import '@testing-library/jest-dom/jest-globals';
import { installNodeEventSource } from '@kol/shared-sdk/testing';

// The progress page follows a task through the SDK's EventSource; jsdom has none.
installNodeEventSource();

// jsdom cannot play media; the pages' players only need play() to settle and pause() to exist.
window.HTMLMediaElement.prototype.play = function play() {
  return Promise.resolve();
};
window.HTMLMediaElement.prototype.pause = function pause() {};
