// jsdom lacks a few browser APIs that react-router and antd use.
const { TextEncoder, TextDecoder } = require('node:util');

if (typeof globalThis.TextEncoder === 'undefined') {
  globalThis.TextEncoder = TextEncoder;
  globalThis.TextDecoder = TextDecoder;
}

// A timer-based MessageChannel (antd's forms use one): Node's own keeps jest from exiting.
if (typeof globalThis.MessageChannel === 'undefined') {
  globalThis.MessageChannel = class MessageChannel {
    constructor() {
      const port = () => ({ onmessage: null, close() {}, start() {} });
      this.port1 = port();
      this.port2 = port();
      this.port1.postMessage = (data) => setTimeout(() => this.port2.onmessage?.({ data }), 0);
      this.port2.postMessage = (data) => setTimeout(() => this.port1.onmessage?.({ data }), 0);
    }
  };
}

if (typeof window !== 'undefined') {
  if (!window.matchMedia) {
    window.matchMedia = (query) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent() {
        return false;
      },
    });
  }
  // jsdom cannot compute styles of pseudo-elements, which antd's Table asks for when it
  // measures the scrollbar; the element's own style is a fine answer in tests.
  const elementStyle = window.getComputedStyle.bind(window);
  window.getComputedStyle = (element) => elementStyle(element);
  if (!window.ResizeObserver) {
    window.ResizeObserver = class ResizeObserver {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
}
