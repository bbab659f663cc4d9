import { StyleProvider } from '@ant-design/cssinjs';
import { ConfigProvider } from 'antd';
import { useState, type ReactNode } from 'react';

/**
 * antd's CSS stays out of component tests. jsdom lays nothing out, so its rules decided little
 * there; what is hidden by an attribute or an inline style still reads as hidden, and the e2e
 * suite checks real rendering in Chromium. Two costs go with it:
 * - computing the styles (half of a page's first render): antd's zero-runtime mode skips it, and
 *   the pages' own ConfigProviders inherit the mode from this one;
 * - jsdom cascading every style element of the document on each `getComputedStyle`, which
 *   Testing Library calls for every element a role query passes (a page test ran 3.5 times
 *   slower): whatever is still written (the theme's CSS variables) goes to an element outside
 *   the document.
 */
export function DetachedStyles({ children }: { children: ReactNode }) {
  const [container] = useState(() => document.createElement('div'));
  return (
    <StyleProvider container={container}>
      <ConfigProvider theme={{ zeroRuntime: true }}>{children}</ConfigProvider>
    </StyleProvider>
  );
}
