import type { PlatformConfig } from '@kol/shared-sdk';
import { createQueryClient } from '@kol/shared-sdk/state';
import type { QueryClient } from '@tanstack/react-query';
import { DetachedStyles } from '@kol/shared-sdk/testing';
import { render } from '@testing-library/react';
import { createStore } from 'jotai';
import { App } from '../app/app';
import type { RemoteOverride } from '../federation/remote-overrides';
import type { ClaimedRoute } from '../federation/remote-registry';
import { claimedRoutesAtom, remoteOverridesAtom } from '../federation/remote-state';
import { DEFAULT_PLATFORM_CONFIG, platformConfigAtom } from '../lib/platform-config';

export function setViewportWidth(width: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
}

/** Renders the whole shell at a path, as the bootstrap does, with its own store and cache. */
export function renderApp(
  path: string,
  options: {
    claims?: ClaimedRoute[];
    config?: Partial<PlatformConfig>;
    overrides?: RemoteOverride[];
    /** The query cache (a fresh one when left out). */
    queryClient?: QueryClient;
  } = {},
) {
  window.history.replaceState(null, '', path);
  const store = createStore();
  store.set(claimedRoutesAtom, options.claims ?? []);
  store.set(platformConfigAtom, { ...DEFAULT_PLATFORM_CONFIG, ...options.config });
  store.set(remoteOverridesAtom, options.overrides ?? []);
  return {
    store,
    ...render(
      <DetachedStyles>
        <App store={store} queryClient={options.queryClient ?? createQueryClient()} />
      </DetachedStyles>,
    ),
  };
}

export function currentUrl(): string {
  return window.location.pathname + window.location.search;
}
