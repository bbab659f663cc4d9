import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { useWorkSaved, workBaseQuery } from '../../../hooks/work-queries';

/**
 * The work the caption page edits (`work_info`), read on arrival: what its save is based on (the
 * shots' pictures and prompts, the revision). The captions themselves come from the session.
 * It is the page's base (`workBaseQuery`): only the page moves it (a save, the newest read on
 * request), never a refresh behind its back.
 */
export function useCaptionWork(workId: number | null) {
  const client = useQueryClient();
  const options = workBaseQuery(workId ?? 0);
  const query = useQuery({ ...options, enabled: workId !== null });
  const work = query.data && query.data.workId === workId ? query.data : null;

  const workSaved = useWorkSaved();
  /** The work as saved: the base of the next save; what shows it elsewhere reads it again. */
  const setWork = useCallback(
    (next: WorkDetail) => {
      client.setQueryData(workBaseQuery(next.workId).queryKey, next);
      workSaved(next.workId);
    },
    [client, workSaved],
  );

  /** The work as read on arrival (or last saved), once that read answered; null if it failed. */
  const loaded = useCallback(async (): Promise<WorkDetail | null> => {
    if (workId === null) return null;
    const key = workBaseQuery(workId).queryKey;
    const known = client.getQueryData(key);
    if (known) return known;
    const state = client.getQueryState(key);
    if (state?.status === 'error' && state.fetchStatus === 'idle') return null;
    try {
      // The read under way: the same request, not a second one.
      return await client.fetchQuery(workBaseQuery(workId));
    } catch {
      return null;
    }
  }, [client, workId]);

  /** Reads the work again now; answers it (null when that failed, the error shown). */
  const reload = useCallback(async (): Promise<WorkDetail | null> => {
    if (workId === null) return null;
    try {
      return await client.fetchQuery({ ...workBaseQuery(workId), staleTime: 0 });
    } catch {
      return null;
    }
  }, [client, workId]);

  return {
    work,
    setWork,
    loaded,
    error: query.error ? errorMessage(query.error) : null,
    retry: () => void query.refetch(),
    reload,
  };
}
