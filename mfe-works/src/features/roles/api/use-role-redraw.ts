import { useCallback, useState } from 'react';
import { getImgResult, regenerateRoleImage, type ImageResult, errorMessage } from '@kol/shared-sdk';
import { imageTaskKey } from '../../../lib/query-keys';
import { useParallelTasks } from '@kol/shared-sdk/state';

/** How often a portrait being drawn is asked for (`img_result`). */
export const REDRAW_POLL_MS = 1000;

export interface RedrawState {
  /** The start call or the drawing is under way. */
  busy: boolean;
  /** The last answer of `img_result` (its engine, its error). */
  result: ImageResult | null;
  /** Why starting the drawing failed (the task's own failure is in `result`). */
  error: string | null;
}

const isRunning = (result: ImageResult) => result.state === 'queued' || result.state === 'running';

/** A role's 重绘形象: being started, started as a task, or refused. */
type Start = { taskId: string | null; error: string | null };

/**
 * 重绘形象: `re_gen_img` for a role, then `img_result` every second until it ends (the tasks of
 * several roles followed side by side, in the query cache under `imageTaskKey`). The
 * server appends the portrait to the role (the first becomes its reference), so a success
 * refreshes the list. States are kept by role id, so they outlive that refresh; leaving the page
 * stops the following, not the drawing. A poll that fails is asked again on the interval.
 */
export function useRoleRedraw(onDrawn: () => void) {
  const [starts, setStarts] = useState<Record<number, Start>>({});

  const entries = Object.entries(starts);
  const tasks = useParallelTasks<ImageResult>(
    entries.flatMap(([roleId, { taskId }]) =>
      taskId === null
        ? []
        : [
            {
              id: roleId,
              queryKey: imageTaskKey(taskId),
              fetch: (signal) => getImgResult({ taskId }, { signal }),
              ended: (result) => !isRunning(result),
              intervalMs: REDRAW_POLL_MS,
            },
          ],
    ),
    (_roleId, result) => {
      if (result.state === 'succeeded') onDrawn();
    },
  );

  const states: Record<number, RedrawState> = Object.fromEntries(
    entries.map(([roleId, start]) => {
      const task = tasks.get(roleId);
      const result = task?.data ?? null;
      const state: RedrawState =
        start.taskId === null
          ? { busy: start.error === null, result: null, error: start.error }
          : { busy: !task?.ended, result, error: null };
      return [roleId, state];
    }),
  );

  const redraw = useCallback(async (roleId: number) => {
    setStarts((all) => ({ ...all, [roleId]: { taskId: null, error: null } }));
    try {
      const { taskId } = await regenerateRoleImage({ roleId });
      setStarts((all) => ({ ...all, [roleId]: { taskId, error: null } }));
    } catch (reason) {
      setStarts((all) => ({ ...all, [roleId]: { taskId: null, error: errorMessage(reason) } }));
    }
  }, []);

  return { states, redraw };
}
