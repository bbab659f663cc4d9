import { useCallback, useEffect, useRef, useState } from 'react';
import { getWorkInfo, type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { savedWorkOf, type SavedWork } from '../lib/work-edits';

/**
 * What a flow's next save over its work is based on: the work as the flow last saved it (`kept`,
 * kept with its draft in the session), else the work read once on arrival (a fresh tab, or a
 * draft kept by an older build). Never read again just before a save: that would base the save on
 * whatever another tab wrote meanwhile and overwrite it unseen.
 */
export function useSavedWork(workId: number | null, kept: SavedWork | null | undefined) {
  const [loaded, setLoaded] = useState<SavedWork | null>(null);
  const [attempt, setAttempt] = useState(0);
  const has = !!kept && kept.workId === workId;
  // The read on arrival, under way or done: a save asked for before it answers waits for it.
  const reading = useRef<Promise<SavedWork | null>>(Promise.resolve(null));
  const failure = useRef<string | null>(null);

  useEffect(() => {
    if (workId === null || has) return;
    let live = true;
    failure.current = null;
    reading.current = getWorkInfo({ workId }).then(
      (work) => {
        const saved = savedWorkOf(work);
        if (live) setLoaded(saved);
        return saved;
      },
      (reason: unknown) => {
        failure.current = errorMessage(reason);
        return null;
      },
    );
    return () => {
      live = false;
    };
  }, [workId, has, attempt]);

  const saved = has ? (kept ?? null) : loaded?.workId === workId ? loaded : null;

  /**
   * The base of a save over the work, once known; null when it could not be read (the message
   * says so, and it is read again for the next try).
   */
  const base = async (): Promise<SavedWork | null> => {
    if (saved) return saved;
    const read = await reading.current;
    if (read && read.workId === workId) return read;
    return null;
  };

  /** Why there is no base, in Chinese; the work is read again for the next try. */
  const problem = (): string => {
    setAttempt((n) => n + 1);
    return `作品加载失败：${failure.current ?? '请稍候再试'}，已重新加载，请再试一次`;
  };

  /** The newest work, read when the person chose it over their edit: its copy is the new base. */
  const takeNewest = useCallback(async (): Promise<WorkDetail | null> => {
    if (workId === null) return null;
    try {
      const work = await getWorkInfo({ workId });
      setLoaded(savedWorkOf(work));
      return work;
    } catch (reason) {
      failure.current = errorMessage(reason);
      return null;
    }
  }, [workId]);

  return { saved, base, problem, takeNewest };
}
