import { useSyncExternalStore } from 'react';

/**
 * Whether the window matches a CSS media query, following it as the window changes. Written
 * here rather than antd's Grid.useBreakpoint: that import brought Row and Col into the host's
 * first load (23 KB over its byte budget).
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener?.('change', onChange);
      return () => list.removeEventListener?.('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
