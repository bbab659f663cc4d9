import type { PlatformConfig } from '@kol/shared-sdk';
import { DetachedStyles } from '@kol/shared-sdk/testing';
import { render } from '@testing-library/react';
import { createStore } from 'jotai';
import { App } from '../app/app';
import {
  claimedRoutesAtom,
  platformConfigAtom,
  DEFAULT_PLATFORM_CONFIG,
  remoteOverridesAtom,
} from '../app/platform-state';
import type { RemoteOverride } from '../federation/remote-overrides';
import type { ClaimedRoute } from '../federation/remote-registry';

export function setViewportWidth(width: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
}

/** Renders the whole shell at a path, as the bootstrap does, with its own store. */
export function renderApp(
  path: string,
  options: {
    claims?: ClaimedRoute[];
    config?: Partial<PlatformConfig>;
    overrides?: RemoteOverride[];
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
        <App store={store} />
      </DetachedStyles>,
    ),
  };
}

export function currentUrl(): string {
  return window.location.pathname + window.location.search;
}
