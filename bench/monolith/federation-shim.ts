// The monolith's stand-in for the federation runtime: the same host code, with each remote's
// `./App` imported from its sources as a lazy chunk of one build instead of fetched from a
// release. Only for bench/frontend.mjs's comparison; never shipped.
type Loader = () => Promise<{ default: unknown }>;

const APPS: Record<string, Loader> = {
  'mfe_user/App': () => import('../../mfe-user/src/app'),
  'mfe_writing/App': () => import('../../mfe-writing/src/app'),
  'mfe_video/App': () => import('../../mfe-video/src/app'),
  'mfe_works/App': () => import('../../mfe-works/src/app'),
};

export function registerRemotes(): void {
  // The remotes are part of this build.
}

export async function loadRemote<T>(id: string): Promise<T | null> {
  const load = APPS[id];
  return load ? ((await load()) as T) : null;
}

export async function preloadRemote(remotes: Array<{ nameOrAlias: string }>): Promise<void> {
  await Promise.all(remotes.map((remote) => APPS[`${remote.nameOrAlias}/App`]?.()));
}

export type ModuleFederationRuntimePlugin = never;
