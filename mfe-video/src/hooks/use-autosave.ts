import { useCallback, useEffect, useRef } from 'react';

/** Runs saves one after another (`serialQueue` of flow-kit's work edits). */
export type SaveQueue = <R>(run: () => Promise<R>) => Promise<R>;

interface AutosaveOptions {
  /** How long after the last change the save runs. */
  delayMs: number;
  /**
   * The page's queue of saves. It is the page's, not the autosave's: every save of a work goes
   * through one queue, so each is based on the revision the one before answered.
   */
  queue: SaveQueue;
}

/**
 * An editing page's autosave: `schedule` saves a moment after the last change (a debounce, not a
 * poller), `flush` saves at once (下一步, before a redraw) and answers whether it saved. `save`
 * reads what is newest itself when it runs and decides whether there is anything to save (an
 * unchanged value is not sent); it answers false when the value cannot be saved.
 *
 * The pending save is dropped when the queued save starts, not when `flush` is called: a save
 * waiting behind another one still reads the newest value, and a change made meanwhile is saved
 * by it rather than by a second save. Leaving the page saves a pending change at once.
 */
export function useAutosave(save: () => Promise<boolean>, { delayMs, queue }: AutosaveOptions) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The newest flush, for the unmount below (which sees only the first render's closures).
  const latestFlush = useRef<() => Promise<boolean>>(() => Promise.resolve(true));

  // Leaving the page with a change still waiting saves it at once: an edit made just before a
  // click on the side menu is not dropped. (The save runs on the page's queue after the page is
  // gone; what it sets on the page is then ignored.)
  useEffect(
    () => () => {
      if (!timer.current) return;
      clearTimeout(timer.current);
      timer.current = null;
      void latestFlush.current();
    },
    [],
  );

  /** Saves now; answers false when it could not (the page shows why). */
  const flush = useCallback(
    (): Promise<boolean> =>
      queue(async () => {
        if (timer.current) clearTimeout(timer.current);
        timer.current = null;
        return save();
      }),
    [queue, save],
  );

  useEffect(() => {
    latestFlush.current = flush;
  });

  /** Saves a moment after the last change. */
  const schedule = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), delayMs);
  }, [flush, delayMs]);

  return { flush, schedule };
}
