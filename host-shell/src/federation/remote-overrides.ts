import { localStore, type RemoteRegistry } from '@kol/shared-sdk';

/**
 * Developing one remote against the running platform: `KOL_REMOTE_OVERRIDES` in this browser's
 * local storage names remotes to load from a developer's dev server instead of the registry's
 * release, e.g. `{ "mfe_video": "http://localhost:3102/mf-manifest.json" }`. Only this browser
 * is affected; every other visitor keeps the registry's versions.
 */
export interface RemoteOverride {
  /** Federation name of a remote the registry knows. */
  name: string;
  manifestUrl: string;
  /** `localhost:3102`: where the remote comes from, as the header's badge says it. */
  source: string;
}

/**
 * The version an overridden remote's load state carries: no release has it, so its failures are
 * the developer's to see, not the release history's to record (bootstrap.tsx skips reporting).
 */
export const OVERRIDE_VERSION = 'dev-override';

/**
 * The developer's own machine only. The server's page policy admits scripts from loopback alone
 * when overrides are allowed, and a value someone talked a user into pasting must not pull code
 * from anywhere else.
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function overrideOf(name: string, value: unknown): RemoteOverride | null {
  if (typeof value !== 'string') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!LOOPBACK_HOSTS.has(url.hostname)) return null;
  return { name, manifestUrl: url.href, source: url.host };
}

/**
 * The overrides to honour: none unless the server allows them (platform config
 * `remoteOverrides`); then each entry naming a known remote with a loopback http(s) URL. Anything
 * else in the value (another shape, unknown names, other URLs) is ignored, never an error: a
 * stale or mistyped value must not keep the platform from starting.
 */
export function activeRemoteOverrides(
  stored: unknown,
  allowed: boolean,
  knownRemotes: Iterable<string>,
): RemoteOverride[] {
  if (!allowed || typeof stored !== 'object' || stored === null || Array.isArray(stored)) {
    return [];
  }
  const known = new Set(knownRemotes);
  return Object.entries(stored as Record<string, unknown>)
    .filter(([name]) => known.has(name))
    .map(([name, value]) => overrideOf(name, value))
    .filter((override): override is RemoteOverride => override !== null);
}

/** As above, from this browser's `KOL_REMOTE_OVERRIDES` (malformed JSON reads as nothing). */
export function storedRemoteOverrides(
  allowed: boolean,
  knownRemotes: Iterable<string>,
): RemoteOverride[] {
  if (!allowed) return [];
  return activeRemoteOverrides(localStore.get('remoteOverrides'), allowed, knownRemotes);
}

/**
 * The registry with each overridden remote pointed at the developer's manifest. Its routes stay
 * the registry's (the host routes by them before any remote loads); it has no last known good to
 * fall back to, so a broken dev build shows its error instead of a release hiding it.
 */
export function withRemoteOverrides(
  registry: RemoteRegistry,
  overrides: RemoteOverride[],
): RemoteRegistry {
  if (overrides.length === 0) return registry;
  const byName = new Map(overrides.map((override) => [override.name, override]));
  return {
    remotes: registry.remotes.map((entry) => {
      const override = byName.get(entry.name);
      return override
        ? {
            ...entry,
            version: OVERRIDE_VERSION,
            manifestUrl: override.manifestUrl,
            lastKnownGood: null,
          }
        : entry;
    }),
  };
}

/** Stops overriding in this browser; the next page load takes every remote from the registry. */
export function clearRemoteOverrides(): void {
  localStore.remove('remoteOverrides');
}
