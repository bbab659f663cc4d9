import { useRef, useState } from 'react';

/**
 * An action that runs once at a time: a click while it runs is ignored, from the very first
 * click on. The guard is a ref, set before anything awaits, so a second click that lands before
 * React has re-rendered the button as busy (a fast double click) is ignored too; `busy` is for
 * showing it (a button's `loading`, which also disables it). Every button that creates
 * something (a work, a task, a spent count, an upload) runs its action through this.
 */
export function useSingleFlight<A extends unknown[], R>(
  action: (...args: A) => Promise<R>,
): { run: (...args: A) => Promise<R | undefined>; busy: boolean } {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = async (...args: A): Promise<R | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    try {
      return await action(...args);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { run, busy };
}
