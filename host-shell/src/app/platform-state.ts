import type { PlatformConfig } from '@kol/shared-sdk';
import { atom } from 'jotai';
import type { ClaimedRoute } from '../federation/remote-registry';

/** Host-only state: how this installation is configured, and the routes its remotes claim. */
export const DEFAULT_PLATFORM_CONFIG: PlatformConfig = {
  ssoHosts: [],
  contact: { title: '联系我们', lines: [] },
};

export const platformConfigAtom = atom<PlatformConfig>(DEFAULT_PLATFORM_CONFIG);
export const claimedRoutesAtom = atom<ClaimedRoute[]>([]);
