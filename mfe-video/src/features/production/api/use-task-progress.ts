import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { followVideoProgress, getWorkResult, type WorkResult } from '@kol/shared-sdk';
import { useTask } from '@kol/shared-sdk/state';
import { isRunning } from '../../../hooks/use-recent-tasks';
import { workResultKey } from '../../../lib/task-keys';

/** How often a task is asked for when its progress stream is gone (e.g. a server restart). */
export const PROGRESS_POLL_MS = 3000;

/**
 * One work's task, live: while it runs, its progress stream (`progress_stream`); when the
 * stream drops, polling `get_work_result` until the task ends, so a server restart is ridden
 * out. `polling` says why a poll failed while it is asked again. `restart` follows the work's
 * new state (after a retry or a cancel), reopening the stream when a new task runs.
 */
export function useTaskProgress(initial: WorkResult) {
  const client = useQueryClient();
  const workId = initial.workId;
  const task = useTask<WorkResult>({
    queryKey: workResultKey(workId),
    fetch: (signal) => getWorkResult({ workId }, { signal }),
    ended: (result) => !isRunning(result),
    intervalMs: PROGRESS_POLL_MS,
    initialData: initial,
    stream: ({ update, fail }) =>
      followVideoProgress(workId, {
        onProgress: update,
        // The stream is closed after its last answer: polling takes over if the task runs on.
        onDone: (answer) => {
          update(answer);
          fail();
        },
        onError: fail,
      }),
  });

  const restart = useCallback(
    (next: WorkResult) => {
      client.setQueryData(workResultKey(workId), next);
    },
    [client, workId],
  );

  return {
    result: task.data ?? initial,
    polling: task.error ? `进度暂时获取不到（${task.error}），正在重试…` : null,
    restart,
  };
}
