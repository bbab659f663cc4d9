import { useCallback, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { workBaseQuery } from '../hooks/work-queries';
import { savedWorkOf, type SavedWork } from './work-edits';

/**
 * What a flow's next save over its work is based on: the work as the flow last saved it (`kept`,
 * kept with its draft in the session), else the work read once on arrival (a fresh tab, or a
 * draft kept by an older build). Never read again just before a save: that would base the save on
 * whatever another tab wrote meanwhile and overwrite it unseen.
 */
export function useSavedWork(workId: number | null, kept: SavedWork | null | undefined) {
  const client = useQueryClient();
  const has = !!kept && kept.workId === workId;
  const options = workBaseQuery(workId ?? 0);
  // The read on arrival, only when nothing is kept: a save asked for before it answers waits.
  const read = useQuery({ ...options, enabled: workId !== null && !has });
  const loaded = useMemo(
    () => (read.data && read.data.workId === workId ? savedWorkOf(read.data) : null),
    [read.data, workId],
  );
  const saved = has ? (kept ?? null) : loaded;

  /**
   * The base of a save over the work, once known; null when it could not be read (the message
   * says so, and it is read again for the next try).
   */
  const base = async (): Promise<SavedWork | null> => {
    if (saved) return saved;
    if (workId === null) return null;
    const state = client.getQueryState(options.queryKey);
    // The read failed and is not being tried again: `problem` says why and asks again.
    if (state?.data === undefined && state?.status === 'error' && state.fetchStatus === 'idle') {
      return null;
    }
    try {
      // The read under way (the same request, not a second one), or the one done meanwhile.
      const work = await client.fetchQuery(options);
      return work.workId === workId ? savedWorkOf(work) : null;
    } catch {
      return null;
    }
  };

  /** Why there is no base, in Chinese; the work is read again for the next try. */
  const problem = (): string => {
    const failure = workId === null ? null : client.getQueryState(options.queryKey)?.error;
    if (workId !== null) void client.refetchQueries({ queryKey: options.queryKey });
    return `作品加载失败：${failure ? errorMessage(failure) : '请稍候再试'}，已重新加载，请再试一次`;
  };

  /** The newest work, read when the person chose it over their edit: its copy is the new base. */
  const takeNewest = useCallback(async (): Promise<WorkDetail | null> => {
    if (workId === null) return null;
    try {
      // Read now, whatever is cached: the person asked for the newest.
      return await client.fetchQuery({ ...workBaseQuery(workId), staleTime: 0 });
    } catch {
      return null;
    }
  }, [client, workId]);

  return { saved, base, problem, takeNewest };
}
