import { useCallback, useState } from 'react';
import { getImgResult, type ImageResult, type TaskRef, errorMessage } from '@kol/shared-sdk';
import { useParallelTasks, type ParallelTasks } from '@kol/shared-sdk/state';

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
 * side by side, one followed task each (the SDK's `useParallelTasks`); leaving the page stops
 * the following, not the drawing. `onDone` hears each picture once, when its task has ended (a
 * key drawn again is a new task, heard again).
 */
export function useImageTasks(onDone?: (key: string, result: ImageResult) => void) {
  const [started, setStarted] = useState<Record<string, Started>>({});

  // Each picture's state from its start and its task's answers. Made in the SDK's `select`, so
  // it is structurally shared: an answer or a render that changes nothing gives the caller the
  // same object, which the callers rely on.
  const picturesOf = (tasks: ParallelTasks<ImageResult>) => {
    const all: Record<string, PictureState> = {};
    for (const [key, start] of Object.entries(started)) {
      const task = tasks.get(key);
      if (!task) {
        all[key] = { busy: start.error === null, result: null, error: start.error };
        continue;
      }
      // A poll that failed is said as the picture's failure until an answer comes again
      // (the task is asked again on the interval).
      const { error } = task;
      const result = error ? null : (task.data ?? null);
      all[key] = { busy: !error && (result === null || isRunning(result)), result, error };
    }
    return all;
  };
  const pictures = useParallelTasks<ImageResult, Record<string, PictureState>>(
    followedOf(started).map(({ key, taskId }) => ({
      id: key,
      queryKey: imageTaskKey(taskId),
      fetch: (signal) => getImgResult({ taskId }, { signal }),
      ended: (result) => !isRunning(result),
      intervalMs: IMAGE_POLL_MS,
    })),
    // The SDK reads the newest callback, so a new function each render is not a new follower.
    (key, result) => onDone?.(key, result),
    picturesOf,
  );

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
