import { useCallback, useEffect, useState } from 'react';
import {
  getWorkResult,
  getWorks,
  type WorkResult,
  type WorkSummary,
  errorMessage,
} from '@kol/shared-sdk';

export interface RecentTask {
  work: WorkSummary;
  result: WorkResult;
}

/** How many of the newest works are looked at for tasks. */
export const RECENT_WORKS = 20;

/**
 * The user's video tasks, newest work first. `get_works` says nothing of a work's task (every
 * summary reads as a finished text), so each of the newest works is asked `get_work_result`;
 * works never generated (no task) are left out.
 */
export function useRecentTasks() {
  const [tasks, setTasks] = useState<RecentTask[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const page = await getWorks({ pageIndex: 1, pageSize: RECENT_WORKS });
        const results = await Promise.all(
          page.items.map((work) =>
            getWorkResult({ workId: work.workId }).then(
              (result) => ({ work, result }),
              // One work that cannot answer (deleted meanwhile) does not hide the others.
              () => null,
            ),
          ),
        );
        if (!live) return;
        setTasks(
          results.filter(
            (entry): entry is RecentTask => entry !== null && entry.result.taskId !== null,
          ),
        );
        setError(null);
      } catch (reason) {
        if (live) setError(errorMessage(reason));
      } finally {
        if (live) setLoading(false);
      }
    })();
    return () => {
      live = false;
    };
  }, [attempt]);

  const reload = useCallback(() => {
    setLoading(true);
    setAttempt((n) => n + 1);
  }, []);

  return { tasks, loading, error, reload };
}

export const isRunning = (result: WorkResult) =>
  result.state === 'queued' || result.state === 'running';
