import type { PlatformConfig } from '@kol/shared-sdk';
import { atom } from 'jotai';

/** How this installation is configured (`GET /api/platform/config`, set by bootstrap.tsx). */
export const DEFAULT_PLATFORM_CONFIG: PlatformConfig = {
  ssoHosts: [],
  contact: { title: '联系我们', lines: [] },
  // Unknown until the server says so: a config that failed to load allows no overrides.
  remoteOverrides: false,
};

export const platformConfigAtom = atom<PlatformConfig>(DEFAULT_PLATFORM_CONFIG);
