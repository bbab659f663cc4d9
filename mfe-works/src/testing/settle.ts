import { act } from '@testing-library/react';

/**
 * Waits while React keeps rendering (antd's motion and message timers), inside act, so a test
 * can then check that nothing was sent.
 */
export function settle(ms = 100): Promise<void> {
  return act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}
