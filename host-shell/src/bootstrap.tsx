import { reportRemoteFailure } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { createStore } from 'jotai';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startupAnswers } from './app/startup';
import { adoptAntdStyles } from './federation/antd-styles';
import { onRemoteFailure } from './federation/fallback-state';
import {
  OVERRIDE_VERSION,
  storedRemoteOverrides,
  withRemoteOverrides,
} from './federation/remote-overrides';
import { installRegistry } from './federation/remote-registry';
import { claimedRoutesAtom, remoteOverridesAtom } from './federation/remote-state';
import { DEFAULT_PLATFORM_CONFIG, platformConfigAtom } from './lib/platform-config';
import { isSsoHost, signedOutDestination } from './session/route-rules';
import { takeStartupUser } from './session/sign-on';

/**
 * Start: take the answers of the first requests (app/startup.ts), register the remotes, and
 * render. A registry that cannot be read leaves the shell working with the host's own pages;
 * every remote route then shows its error page. The user's answer is applied before the first
 * render, so the first thing drawn is the frame, or the page a signed-out visitor is sent to,
 * rather than a spinner followed by it.
 */
async function start(): Promise<void> {
  const store = createStore();
  const { config, registry, user } = await startupAnswers;
  const platformConfig = config.status === 'fulfilled' ? config.value : DEFAULT_PLATFORM_CONFIG;
  store.set(platformConfigAtom, platformConfig);
  if (registry.status === 'fulfilled') {
    const overrides = storedRemoteOverrides(
      platformConfig.remoteOverrides,
      registry.value.remotes.map((entry) => entry.name),
    );
    store.set(remoteOverridesAtom, overrides);
    store.set(claimedRoutesAtom, installRegistry(withRemoteOverrides(registry.value, overrides)));
  }

  if (user.status === 'fulfilled' && user.value) {
    takeStartupUser();
    store.set(currentUserAtom, user.value);
  } else if (
    user.status === 'rejected' &&
    !isSsoHost(window.location.hostname, platformConfig.ssoHosts)
  ) {
    // SessionGate's rule for a page without a user, applied before it renders. On a single
    // sign-on host SessionGate takes the failed fetch and leaves for the sign-on server.
    takeStartupUser();
    window.history.replaceState(
      null,
      '',
      signedOutDestination(window.location.pathname, window.location.search),
    );
  }

  onRemoteFailure((event) => {
    // A developer's dev server that fails is no release's failure: nothing for ops to see.
    if (event.version === OVERRIDE_VERSION) return;
    reportRemoteFailure(event).catch(() => {
      // Reporting is best effort; the user already sees the fallback or the error page.
    });
  });

  // The first load's antd styles came with index.html (antd.<hash>.css): antd reads them there.
  adoptAntdStyles('host_shell');

  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App store={store} />);
}

void start();
