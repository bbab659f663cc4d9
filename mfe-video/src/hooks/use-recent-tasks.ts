import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getWorkResult,
  getWorks,
  type WorkResult,
  type WorkSummary,
  errorMessage,
} from '@kol/shared-sdk';
import { workResultKey } from '../lib/task-keys';

export interface RecentTask {
  work: WorkSummary;
  result: WorkResult;
}

/** How many of the newest works are looked at for tasks. */
export const RECENT_WORKS = 20;

/** The query key of the user's recent tasks. */
export const RECENT_TASKS_KEY = ['recent-tasks'] as const;

const NONE: RecentTask[] = [];

/**
 * The user's video tasks, newest work first. `get_works` says nothing of a work's task (every
 * summary reads as a finished text), so each of the newest works is asked `get_work_result`;
 * works never generated (no task) are left out. Read afresh each time a page shows them: tasks
 * start and end behind the page.
 */
export function useRecentTasks() {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: RECENT_TASKS_KEY,
    queryFn: async ({ signal }) => {
      const page = await getWorks({ pageIndex: 1, pageSize: RECENT_WORKS }, { signal });
      const results = await Promise.all(
        page.items.map((work) =>
          getWorkResult({ workId: work.workId }, { signal }).then(
            (result) => ({ work, result }),
            // One work that cannot answer (deleted meanwhile) does not hide the others.
            () => null,
          ),
        ),
      );
      const tasks = results.filter(
        (entry): entry is RecentTask => entry !== null && entry.result.taskId !== null,
      );
      // Each task's state where its follower reads it (the production page's cards): they
      // start from this answer rather than asking for it again.
      for (const task of tasks) client.setQueryData(workResultKey(task.work.workId), task.result);
      return tasks;
    },
    staleTime: 0,
  });

  return {
    tasks: query.data ?? NONE,
    loading: query.isFetching,
    error: query.error ? errorMessage(query.error) : null,
    reload: () => void query.refetch(),
  };
}

export const isRunning = (result: WorkResult) =>
  result.state === 'queued' || result.state === 'running';
