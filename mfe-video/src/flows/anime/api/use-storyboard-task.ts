import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getWorkResult, type WorkResult } from '@kol/shared-sdk';
import { useTask } from '@kol/shared-sdk/state';
import { taskResultKey } from '../../../lib/task-keys';

/** How often a running storyboard task is asked for its progress. */
export const STORYBOARD_POLL_MS = 1500;

export const isRunning = (result: WorkResult | null) =>
  result !== null && (result.state === 'queued' || result.state === 'running');

/**
 * The anime short's storyboard task of the address (`:taskId`): its work, state and progress
 * (`get_work_result` with the task id), asked again while it runs. `onChange` hears each answer
 * (the page reads the work again as the shots and pictures land on it).
 */
export function useStoryboardTask(taskId: string, onChange?: (result: WorkResult) => void) {
  const client = useQueryClient();
  // The caller's latest listener: each answer reaches the page as it is now rendered.
  const listener = useRef(onChange);
  useEffect(() => {
    listener.current = onChange;
  });

  const task = useTask<WorkResult>({
    queryKey: taskResultKey(taskId),
    fetch: async (signal) => {
      const answer = await getWorkResult({ taskId }, { signal });
      // Told here rather than when the state changes: shots land on the work between two
      // answers that may read the same, and each answer is the page's cue to read the work.
      listener.current?.(answer);
      return answer;
    },
    ended: (result) => !isRunning(result),
    intervalMs: STORYBOARD_POLL_MS,
  });

  return {
    result: task.data ?? null,
    error: task.error,
    reload: () => void client.refetchQueries({ queryKey: taskResultKey(taskId) }),
  };
}
