import { getPlatformConfig, getRemoteRegistry, reportRemoteFailure } from '@kol/shared-sdk';
import { createStore } from 'jotai';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import {
  DEFAULT_PLATFORM_CONFIG,
  claimedRoutesAtom,
  platformConfigAtom,
} from './app/platform-state';
import { onRemoteFailure } from './federation/fallback-state';
import { installRegistry } from './federation/remote-registry';
import { prefetchStartupUser } from './session/sign-on';

/**
 * Start: read this installation's configuration and the remote registry (and the user, for a
 * page that needs one), register the remotes, and render. A registry that cannot be read leaves the shell working with the host's own pages;
 * every remote route then shows its error page.
 */
async function start(): Promise<void> {
  const store = createStore();
  // The user too, at the same time as the configuration and the registry.
  prefetchStartupUser(window.location.pathname);
  const [config, registry] = await Promise.allSettled([getPlatformConfig(), getRemoteRegistry()]);
  store.set(
    platformConfigAtom,
    config.status === 'fulfilled' ? config.value : DEFAULT_PLATFORM_CONFIG,
  );
  if (registry.status === 'fulfilled')
    store.set(claimedRoutesAtom, installRegistry(registry.value));

  onRemoteFailure((event) => {
    reportRemoteFailure(event).catch(() => {
      // Reporting is best effort; the user already sees the fallback or the error page.
    });
  });

  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App store={store} />);
}

void start();
