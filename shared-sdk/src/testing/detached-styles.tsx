import { StyleProvider } from '@ant-design/cssinjs';
import { useState, type ReactNode } from 'react';

/**
 * antd's generated CSS goes into an element outside the document in tests. jsdom parses every
 * style element in the document and cascades all of its rules on each `getComputedStyle`, which
 * Testing Library calls for every element a role query passes: with antd's thousands of rules a
 * page test ran 3.5 times slower. jsdom lays nothing out, so these rules decided little in the
 * tests; what is hidden by an attribute or an inline style still reads as hidden, and the e2e
 * suite checks real rendering in Chromium.
 */
export function DetachedStyles({ children }: { children: ReactNode }) {
  const [container] = useState(() => document.createElement('div'));
  return <StyleProvider container={container}>{children}</StyleProvider>;
}
