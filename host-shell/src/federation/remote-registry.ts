import { loadRemote, preloadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RemoteEntry, RemoteRegistry, RouteClaim } from '@kol/shared-sdk';
import type { ComponentType } from 'react';
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

export async function loadRemoteApp(name: string): Promise<RemoteApp> {
  const module = await loadRemote<{ default: RemoteApp }>(`${name}/App`);
  if (!module?.default) throw new Error(`远程模块 ${name} 没有提供页面`);
  return module.default;
}

/**
 * After a failure the runtime keeps the remote cached as failed; a retry registers the active
 * version again (force clears that cache) and starts over from it.
 */
export function resetRemote(name: string): void {
  const state = remoteLoadStates.get(name);
  if (!state) return;
  state.current = state.active;
  registerRemotes([{ name, entry: state.active.manifestUrl }], { force: true });
}

/**
 * Fetches a remote's entry and page code ahead of a click (menu hover, idle time). Settles once
 * they arrived, never rejects: a failed preload is not an error the user sees; the real load
 * reports and falls back.
 */
export async function preloadRemoteApp(name: string): Promise<void> {
  if (!remoteLoadStates.has(name)) return;
  await preloadRemote([{ nameOrAlias: name, exposes: ['./App'] }]).catch(() => {});
}
