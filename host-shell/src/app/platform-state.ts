import type { PlatformConfig } from '@kol/shared-sdk';
import { atom } from 'jotai';
import type { RemoteOverride } from '../federation/remote-overrides';
import type { ClaimedRoute } from '../federation/remote-registry';

/** Host-only state: how this installation is configured, and the routes its remotes claim. */
export const DEFAULT_PLATFORM_CONFIG: PlatformConfig = {
  ssoHosts: [],
  contact: { title: '联系我们', lines: [] },
  // Unknown until the server says so: a config that failed to load allows no overrides.
  remoteOverrides: false,
};

export const platformConfigAtom = atom<PlatformConfig>(DEFAULT_PLATFORM_CONFIG);
export const claimedRoutesAtom = atom<ClaimedRoute[]>([]);
/** The remotes this browser loads from a developer's dev server (federation/remote-overrides.ts). */
export const remoteOverridesAtom = atom<RemoteOverride[]>([]);
