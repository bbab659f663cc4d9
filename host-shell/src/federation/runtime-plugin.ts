import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { recordRemoteFailure, remoteLoadStates, type RemoteVersionRef } from './fallback-state';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const RETRIES = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Fetches a manifest, trying again (after 200 then 400 ms) when the network fails or the server
 * answers 5xx: a passing fault should not cost the user the active version.
 */
export async function fetchWithRetry(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const response = await fetch(url, init);
      if (response.status < 500 || attempt >= RETRIES) return response;
    } catch (error) {
      if (attempt >= RETRIES) throw error;
    }
    await sleep(200 * 2 ** attempt);
  }
}

function baseUrlOf(ref: RemoteVersionRef): string {
  return new URL('.', new URL(ref.manifestUrl, window.location.href)).href;
}

/**
 * Manifest fetches are retried on passing faults. When the active version of a remote still fails
 * to load, report it and carry on with that remote's
 * last known good version: a failed manifest is replaced by the good version's manifest (with
 * its own public path, so its chunks come from its own folder), a failed module by the module
 * loaded from the good version. Without a good version the error goes on to the remote's error
 * boundary, which shows the error page with a retry button.
 */
export default function kolRemoteFallbackPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'kol-remote-fallback',
    fetch(url, init) {
      return fetchWithRetry(url, init);
    },
    async errorLoadRemote({ id, error, lifecycle, remote, origin }) {
      const name = remote?.name ?? id.split('/')[0] ?? id;
      const state = remoteLoadStates.get(name);
      recordRemoteFailure({
        remote: name,
        version: state?.current.version ?? '',
        phase: lifecycle,
        message: messageOf(error).slice(0, 2000),
      });
      const good = state?.lastKnownGood;
      if (!state || !good || state.current.version === good.version) return undefined;
      state.current = good;
      if (lifecycle === 'afterResolve') {
        const response = await fetch(good.manifestUrl, { cache: 'no-cache' });
        const manifest = (await response.json()) as { metaData: Record<string, unknown> };
        manifest.metaData.publicPath = baseUrlOf(good);
        delete manifest.metaData.getPublicPath;
        return manifest;
      }
      if (lifecycle === 'onLoad') {
        origin.registerRemotes([{ name, entry: good.manifestUrl }], { force: true });
        return origin.loadRemote(id);
      }
      return undefined;
    },
  };
}
