import { useCallback, useEffect, useRef, useState } from 'react';
import { getWorkInfo, type WorkDetail, errorMessage } from '@kol/shared-sdk';

/**
 * The work the caption page edits (`work_info`), read on arrival: what its save is based on (the
 * shots' pictures and prompts, the revision). The captions themselves come from the session.
 */
export function useCaptionWork(workId: number | null) {
  const [work, setWorkState] = useState<WorkDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // The read under way (or done): a save asked for before it answers waits for it.
  const reading = useRef<Promise<WorkDetail | null>>(Promise.resolve(null));
  const current = useRef<WorkDetail | null>(null);

  const setWork = useCallback((next: WorkDetail) => {
    current.current = next;
    setWorkState(next);
  }, []);

  useEffect(() => {
    if (workId === null) return;
    let live = true;
    reading.current = getWorkInfo({ workId }).then(
      (answer) => {
        if (!live) return null;
        setWork(answer);
        setError(null);
        return answer;
      },
      (reason: unknown) => {
        if (live) setError(errorMessage(reason));
        return null;
      },
    );
    return () => {
      live = false;
    };
  }, [workId, attempt, setWork]);

  /** The work as read on arrival (or last saved), once that read answered; null if it failed. */
  const loaded = useCallback(
    async (): Promise<WorkDetail | null> => current.current ?? (await reading.current),
    [],
  );

  /** Reads the work again now; answers it (null when that failed, the error shown). */
  const reload = useCallback(async (): Promise<WorkDetail | null> => {
    if (workId === null) return null;
    try {
      const answer = await getWorkInfo({ workId });
      setWork(answer);
      setError(null);
      return answer;
    } catch (reason) {
      setError(errorMessage(reason));
      return null;
    }
  }, [workId, setWork]);

  return { work, setWork, loaded, error, retry: () => setAttempt((n) => n + 1), reload };
}
