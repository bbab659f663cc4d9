/**
 * Idle-time preload: once the first page has settled, the remotes behind the menu are fetched one
 * by one while the browser has nothing else to do, so a later click opens its page at once. The
 * delay keeps them out of the first load (its byte budget counts only what the page needs) and
 * leaves the network to what the first page asks for; one remote at a time, each started in an
 * idle period, keeps a slow machine responsive. A browser that asked to save data gets none.
 */

/** How long after the first page settles before anything is preloaded. */
export const IDLE_PRELOAD_DELAY_MS = 5_000;

interface NetworkInformationLike {
  saveData?: boolean;
  effectiveType?: string;
}

/** Data saver on, or a 2G-class connection: preloading would spend what the user asked to keep. */
export function preloadUnwanted(
  connection: NetworkInformationLike | undefined = (
    globalThis.navigator as { connection?: NetworkInformationLike } | undefined
  )?.connection,
): boolean {
  if (!connection) return false;
  return connection.saveData === true || /(^|-)2g$/.test(connection.effectiveType ?? '');
}

function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    // The timeout bounds the wait on a page that is never idle (an animation running).
    const handle = requestIdleCallback(run, { timeout: 2_000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(run, 0);
  return () => clearTimeout(handle);
}

/**
 * After `delayMs`, preloads each of `remotes` in order, each in an idle period after the last one
 * finished. Returns the cancel function (the layout unmounting, the user signing out).
 */
export function scheduleIdlePreload(
  remotes: readonly string[],
  preload: (remote: string) => Promise<void>,
  delayMs = IDLE_PRELOAD_DELAY_MS,
): () => void {
  if (remotes.length === 0 || preloadUnwanted()) return () => {};
  let cancelled = false;
  let cancelStep: () => void = () => {};
  const next = (index: number) => {
    const remote = remotes[index];
    if (cancelled || remote === undefined) return;
    cancelStep = whenIdle(() => {
      if (cancelled) return;
      void preload(remote).finally(() => next(index + 1));
    });
  };
  const timer = setTimeout(() => next(0), delayMs);
  return () => {
    cancelled = true;
    clearTimeout(timer);
    cancelStep();
  };
}
