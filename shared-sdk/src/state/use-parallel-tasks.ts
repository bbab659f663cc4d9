import { useEffect, useMemo, useRef } from 'react';
import { hashKey, useQueries, type UseQueryResult } from '@tanstack/react-query';
import { errorMessage } from '@kol/shared-sdk';
import { taskQueryOptions, type FollowedTask, type TaskOptions } from './use-task';

/** One of several tasks followed side by side, named by what it is for (a segment, a role). */
export interface ParallelTask<T> extends TaskOptions<T> {
  id: string;
}

/** The followed tasks by id, in the order they were given. */
export type ParallelTasks<T> = ReadonlyMap<string, FollowedTask<T>>;

/** What `combine` keeps: each task's state with its id, and what the caller made of them. */
interface Combined<T, R> {
  entries: [string, FollowedTask<T>][];
  selected: R | null;
}

/**
 * Several tasks followed side by side (pictures drawn for different segments or roles at once),
 * each as `useTask` follows one: polled on its interval until it ends, its state in the query
 * cache under its key (`taskQueryOptions` with `useQueries`). `onEnd` runs once per task key
 * (a task drawn again has a new key, so its end is told again) when it is seen to end, with the
 * task's `id`; the answer is by id.
 *
 * The answer is structurally shared: it is built in `useQueries`' `combine`, so a render or a
 * poll that changes no task's state gives the same object (and the same state object for each
 * task that did not change), which callers may put in effect and memo dependencies. `select`
 * makes the caller's own answer from the tasks' states (e.g. joined with what it started but
 * has no task for yet); it is shared the same way, so it should be made of plain objects and
 * arrays.
 */
export function useParallelTasks<T>(
  tasks: readonly ParallelTask<T>[],
  onEnd: (id: string, value: T) => void,
): ParallelTasks<T>;
export function useParallelTasks<T, R>(
  tasks: readonly ParallelTask<T>[],
  onEnd: (id: string, value: T) => void,
  select: (followed: ParallelTasks<T>) => R,
): R;
export function useParallelTasks<T, R>(
  tasks: readonly ParallelTask<T>[],
  onEnd: (id: string, value: T) => void,
  select?: (followed: ParallelTasks<T>) => R,
): ParallelTasks<T> | R {
  // Built anew on each render (it reads this render's tasks and `select`), then kept by
  // `useQueries` as the previous answer wherever nothing differs (`replaceEqualDeep`). A Map is
  // not shared that way, so the shared form is its entries: plain arrays and objects.
  const combine = (results: UseQueryResult<T>[]): Combined<T, R> => {
    const entries = tasks.map((task, index): [string, FollowedTask<T>] => {
      const result = results[index];
      const data = result?.data;
      return [
        task.id,
        {
          data,
          ended: data !== undefined && task.ended(data),
          loading: (task.enabled ?? true) && data === undefined && result?.isPending === true,
          error: result?.error ? errorMessage(result.error) : null,
        },
      ];
    });
    return { entries, selected: select ? select(new Map(entries)) : null };
  };
  const combined = useQueries({ queries: tasks.map((task) => taskQueryOptions(task)), combine });

  // The Map is made again only when the shared entries changed, so it keeps their stability.
  const { entries, selected } = combined;
  const followed: ParallelTasks<T> = useMemo(() => new Map(entries), [entries]);

  // The newest callback, read by the end effect without running it again for a new function.
  const latestEnd = useRef(onEnd);
  useEffect(() => {
    latestEnd.current = onEnd;
  });

  // Task keys whose end was told: each is told once, whatever renders follow. The key holds the
  // task (a picture drawn again for the same id is a new task under a new key, told again).
  const told = useRef(new Set<string>());
  useEffect(() => {
    tasks.forEach((task, index) => {
      const state = entries[index]?.[1];
      if (state?.data === undefined || !state.ended) return;
      const key = hashKey(task.queryKey);
      if (told.current.has(key)) return;
      told.current.add(key);
      latestEnd.current(task.id, state.data);
    });
  });

  return select ? (selected as R) : followed;
}
