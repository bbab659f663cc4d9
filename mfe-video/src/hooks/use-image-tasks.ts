import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { getImgResult, type ImageResult, type TaskRef, errorMessage } from '@kol/shared-sdk';
import { taskQueryOptions } from '@kol/shared-sdk/state';

/** How often a running picture is asked for (`img_result`). */
export const IMAGE_POLL_MS = 1500;

export interface PictureState {
  /** The call that starts the picture, then the task, is running. */
  busy: boolean;
  result: ImageResult | null;
  /** Why starting or following the picture failed (the task's own error is in `result`). */
  error: string | null;
}

/** The query key of one picture's task. */
export const imageTaskKey = (taskId: string) => ['image-task', taskId] as const;

/** A picture's start: its task once the call answered, or why the call failed. */
interface Started {
  taskId: string | null;
  error: string | null;
}

const isRunning = (result: ImageResult) => result.state === 'queued' || result.state === 'running';

/** The started pictures that have a task to follow, in the order of `started`. */
const followedOf = (started: Record<string, Started>) =>
  Object.entries(started).flatMap(([key, { taskId }]) =>
    taskId === null ? [] : [{ key, taskId }],
  );

/**
 * Pictures being drawn, by a key of the caller's (a role id, a shot index): each started with
 * its call (`gen_img`, `re_gen_img`), then followed with `img_result` until it ends. Pictures run
 * side by side, one followed task each (`taskQueryOptions`); leaving the page stops the
 * following, not the drawing. `onDone` hears each picture once, when its task has ended.
 */
export function useImageTasks(onDone?: (key: string, result: ImageResult) => void) {
  const [started, setStarted] = useState<Record<string, Started>>({});
  const doneRef = useRef(onDone);
  useEffect(() => {
    doneRef.current = onDone;
  });

  const followed = followedOf(started);
  // Each picture's state from its start and its task's answers; structurally shared by
  // useQueries, so an answer that changes nothing gives the caller the same object.
  const combine = (results: UseQueryResult<ImageResult>[]) => {
    const tasks = new Map(followed.map(({ key }, index) => [key, results[index]]));
    const all: Record<string, PictureState> = {};
    for (const [key, start] of Object.entries(started)) {
      const task = tasks.get(key);
      if (!task) {
        all[key] = { busy: start.error === null, result: null, error: start.error };
        continue;
      }
      // A poll that failed is said as the picture's failure until an answer comes again
      // (the task is asked again on the interval).
      const error = task.error ? errorMessage(task.error) : null;
      const result = error ? null : (task.data ?? null);
      all[key] = { busy: !error && (result === null || isRunning(result)), result, error };
    }
    return all;
  };
  const pictures = useQueries({
    queries: followed.map(({ taskId }) =>
      taskQueryOptions<ImageResult>({
        queryKey: imageTaskKey(taskId),
        fetch: (signal) => getImgResult({ taskId }, { signal }),
        ended: (result) => !isRunning(result),
        intervalMs: IMAGE_POLL_MS,
      }),
    ),
    combine,
  });

  // Each picture's end told once (a key drawn again is a new task, told again).
  const told = useRef(new Set<string>());
  useEffect(() => {
    for (const [key, { taskId }] of Object.entries(started)) {
      const result = pictures[key]?.result;
      if (taskId === null || !result || isRunning(result)) continue;
      const id = `${key}\n${taskId}`;
      if (told.current.has(id)) continue;
      told.current.add(id);
      doneRef.current?.(key, result);
    }
  }, [started, pictures]);

  /** Starts one picture; answers false when the call was refused (the error is in its state). */
  const start = useCallback(async (key: string, call: () => Promise<TaskRef>): Promise<boolean> => {
    const put = (state: Started) => setStarted((all) => ({ ...all, [key]: state }));
    put({ taskId: null, error: null });
    try {
      const { taskId } = await call();
      put({ taskId, error: null });
      return true;
    } catch (reason) {
      put({ taskId: null, error: errorMessage(reason) });
      return false;
    }
  }, []);

  return { pictures, start };
}
