import { useEffect, useRef } from 'react';
import { hashKey, useQueries } from '@tanstack/react-query';
import { errorMessage } from '@kol/shared-sdk';
import { taskQueryOptions, type FollowedTask, type TaskOptions } from './use-task';

/** One of several tasks followed side by side, named by what it is for (a segment, a role). */
export interface ParallelTask<T> extends TaskOptions<T> {
  id: string;
}

/**
 * Several tasks followed side by side (pictures drawn for different segments or roles at once),
 * each as `useTask` follows one: polled on its interval until it ends, its state in the query
 * cache under its key (`taskQueryOptions` with `useQueries`). `onEnd` runs once per task when it
 * is seen to end, with the task's `id`; the answer is by id.
 */
export function useParallelTasks<T>(
  tasks: readonly ParallelTask<T>[],
  onEnd: (id: string, value: T) => void,
): ReadonlyMap<string, FollowedTask<T>> {
  const results = useQueries({ queries: tasks.map((task) => taskQueryOptions(task)) });

  // The newest callback, read by the end effect without running it again for a new function.
  const latestEnd = useRef(onEnd);
  useEffect(() => {
    latestEnd.current = onEnd;
  });

  // Task keys whose end was told: each is told once, whatever renders follow.
  const told = useRef(new Set<string>());
  useEffect(() => {
    tasks.forEach((task, index) => {
      const data = results[index]?.data;
      if (data === undefined || !task.ended(data)) return;
      const key = hashKey(task.queryKey);
      if (told.current.has(key)) return;
      told.current.add(key);
      latestEnd.current(task.id, data);
    });
  });

  return new Map(
    tasks.map((task, index) => {
      const result = results[index];
      const data = result?.data;
      const followed: FollowedTask<T> = {
        data,
        ended: data !== undefined && task.ended(data),
        loading: (task.enabled ?? true) && data === undefined && result?.isPending === true,
        error: result?.error ? errorMessage(result.error) : null,
      };
      return [task.id, followed];
    }),
  );
}
