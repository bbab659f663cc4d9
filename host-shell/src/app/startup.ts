import {
  getPlatformConfig,
  getRemoteRegistry,
  type PlatformConfig,
  type RemoteRegistry,
  type UserInfo,
} from '@kol/shared-sdk';
import { prefetchStartupUser } from '../session/sign-on';

/**
 * The first page's requests: this installation's configuration, the remote registry and, for a
 * page that needs one, the user. index.ts starts them before the rest of the host's code is
 * evaluated (antd and the pages take a slow machine a hundred milliseconds and more), so they
 * travel meanwhile rather than after.
 */
export interface StartupAnswers {
  config: PromiseSettledResult<PlatformConfig>;
  registry: PromiseSettledResult<RemoteRegistry>;
  /** Null when the page fetches no user at start. */
  user: PromiseSettledResult<UserInfo | null>;
}

function startRequests(pathname: string): Promise<StartupAnswers> {
  return Promise.allSettled([
    getPlatformConfig(),
    getRemoteRegistry(),
    prefetchStartupUser(pathname) ?? Promise.resolve(null),
  ]).then(([config, registry, user]) => ({ config, registry, user }));
}

/** Started when this module is first imported: index.ts imports it before anything else. */
export const startupAnswers: Promise<StartupAnswers> = startRequests(window.location.pathname);
