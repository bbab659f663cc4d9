import { atom } from 'jotai';
import type { RemoteOverride } from './remote-overrides';
import type { ClaimedRoute } from './remote-registry';

/** The routes the registry's remotes claim, set by bootstrap.tsx once they are registered. */
export const claimedRoutesAtom = atom<ClaimedRoute[]>([]);
/** The remotes this browser loads from a developer's dev server (remote-overrides.ts). */
export const remoteOverridesAtom = atom<RemoteOverride[]>([]);
