import { loadRemote, preloadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RemoteEntry, RemoteRegistry, RouteClaim } from '@kol/shared-sdk';
import type { ComponentType } from 'react';
import { loadRemoteAntdStyles } from './antd-styles';
import { remoteLoadStates } from './fallback-state';

/** What a remote exposes as `./App`: it renders the page of one of its route claims. */
export type RemoteApp = ComponentType<{ routePath: string }>;

export interface ClaimedRoute extends RouteClaim {
  remote: string;
}

/** Registers every remote of the registry with the federation runtime; answers their routes. */
export function installRegistry(registry: RemoteRegistry): ClaimedRoute[] {
  for (const entry of registry.remotes) {
    const active = { version: entry.version, manifestUrl: entry.manifestUrl };
    remoteLoadStates.set(entry.name, {
      active,
      current: active,
      lastKnownGood: entry.lastKnownGood,
    });
  }
  registerRemotes(
    registry.remotes.map((entry: RemoteEntry) => ({ name: entry.name, entry: entry.manifestUrl })),
    { force: true },
  );
  return registry.remotes.flatMap((entry) =>
    entry.routes.map((claim) => ({ ...claim, remote: entry.name })),
  );
}

/** Each remote's `./App` once loaded: a page of a remote already here renders at once. */
const loadedApps = new Map<string, RemoteApp>();

export async function loadRemoteApp(name: string): Promise<RemoteApp> {
  const release = remoteLoadStates.get(name)?.current;
  // Its antd styles arrive beside its code, so its first page computes none of them.
  const [module] = await Promise.all([
    loadRemote<{ default: RemoteApp }>(`${name}/App`),
    release && loadRemoteAntdStyles(name, release.manifestUrl),
  ]);
  if (!module?.default) throw new Error(`远程模块 ${name} 没有提供页面`);
  loadedApps.set(name, module.default);
  return module.default;
}

/** The remote's `./App` if it was loaded (by a page or a preload), else undefined. */
export function loadedRemoteApp(name: string): RemoteApp | undefined {
  return loadedApps.get(name);
}

/**
 * After a failure the runtime keeps the remote cached as failed; a retry registers the active
 * version again (force clears that cache) and starts over from it.
 */
export function resetRemote(name: string): void {
  const state = remoteLoadStates.get(name);
  if (!state) return;
  loadedApps.delete(name);
  state.current = state.active;
  registerRemotes([{ name, entry: state.active.manifestUrl }], { force: true });
}

/**
 * Fetches a remote's entry and page code ahead of a click (menu hover, idle time), then runs its
 * `./App` module, so the click only renders. Never rejects: a failed preload shows the user
 * nothing (the runtime plugin has reported it; the click's own load retries and falls back).
 */
export async function preloadRemoteApp(name: string): Promise<void> {
  if (!remoteLoadStates.has(name) || loadedApps.has(name)) return;
  try {
    await preloadRemote([{ nameOrAlias: name, exposes: ['./App'] }]);
    await loadRemoteApp(name);
  } catch {
    // As above: the page's own load decides what the user sees.
  }
}
