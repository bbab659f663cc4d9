import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getWorkInfo,
  getWorkResult,
  type WorkDetail,
  type WorkResult,
  errorMessage,
} from '@kol/shared-sdk';

interface VideoResult {
  result: WorkResult;
  work: WorkDetail;
}

/** The query key of a task's video and its work. */
export const videoResultKey = (taskId: string) => ['video-result', taskId] as const;

/** A task's video (`get_work_result` by task id) and its work (`work_info`). */
export function useVideoResult(taskId: string) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: videoResultKey(taskId),
    queryFn: async ({ signal }): Promise<VideoResult> => {
      const result = await getWorkResult({ taskId }, { signal });
      const work = await getWorkInfo({ workId: result.workId }, { signal });
      return { result, work };
    },
  });

  /** The work as the page changed it (renamed, moved between drafts and creations). */
  const setWork = useCallback(
    (work: WorkDetail) => {
      client.setQueryData<VideoResult>(videoResultKey(taskId), (current) =>
        current ? { ...current, work } : current,
      );
    },
    [client, taskId],
  );

  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  return {
    result: query.data?.result ?? null,
    work: query.data?.work ?? null,
    setWork,
    error: query.error ? errorMessage(query.error) : null,
    reload,
  };
}
